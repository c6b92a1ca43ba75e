// Hardhat 2 configuration. Compiles with the solc-js build shipped in the `solc` npm package so that
// `hardhat compile` never downloads a compiler (the build machines cannot reach binaries.soliditylang.org).
//
// Written with `import = require` and `export =`: Hardhat 2 loads this file through ts-node as CommonJS,
// and the root tsconfig's `module: "preserve"` would otherwise emit ESM syntax that Node rejects here.
import type { HardhatUserConfig } from "hardhat/types";

import taskNames = require("hardhat/builtin-tasks/task-names");
import hardhatConfig = require("hardhat/config");

require("@nomicfoundation/hardhat-toolbox-viem");

const SOLC_VERSION = "0.8.30";

hardhatConfig
  .subtask(taskNames.TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD)
  .setAction(async ({ solcVersion }: { solcVersion: string }) => {
    const solc = require("solc") as { version(): string };
    const longVersion = solc.version().replace(/\.Emscripten\.clang$/, "");
    if (solcVersion !== SOLC_VERSION || !longVersion.startsWith(solcVersion)) {
      throw new Error(
        `Only the offline solc-js ${SOLC_VERSION} is available (installed solc npm package: ${longVersion}); ` +
          `requested ${solcVersion}. Pin pragma and the solc package to ${SOLC_VERSION}.`,
      );
    }
    return {
      compilerPath: require.resolve("solc/soljson.js"),
      isSolcJs: true,
      version: solcVersion,
      longVersion,
    };
  });

const config: HardhatUserConfig = {
  solidity: {
    version: SOLC_VERSION,
    settings: {
      // Transient storage (EIP-1153) backs the reentrancy guard, so the target needs Cancun or later.
      evmVersion: "cancun",
      optimizer: { enabled: true, runs: 10_000 },
      viaIR: true,
    },
  },
};

export = config;
