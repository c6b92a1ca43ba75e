// Compiled contract artifacts (ABI + creation bytecode) produced by `hardhat compile` under artifacts/.
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import type { Abi, Hex } from "viem";
import { ServiceError } from "../../core/errors/serviceError";

export const REPO_ROOT = resolve(__dirname, "../..");

/** Contracts whose artifacts other parts of the project (or the tests) read, with their source file. */
export const CONTRACT_SOURCES = {
  IdentityRegistry: "contracts/IdentityRegistry.sol",
  LocalPriceFeed: "contracts/LocalPriceFeed.sol",
  ReentrantWallet: "contracts/test/ReentrantWallet.sol",
  LocalSequencerUptimeFeed: "contracts/test/LocalSequencerUptimeFeed.sol",
  LaunchCheckGasProbe: "contracts/test/LaunchCheckGasProbe.sol",
  GuardedLaunchpad: "contracts/examples/GuardedLaunchpad.sol",
  LaunchToken: "contracts/examples/LaunchToken.sol",
  UnguardedLaunchpad: "contracts/test/UnguardedLaunchpad.sol",
  IdentityGuardGasProbe: "contracts/test/IdentityGuardGasProbe.sol",
  RevertingIdentityRegistry: "contracts/test/RevertingIdentityRegistry.sol",
} as const;
export type ContractName = keyof typeof CONTRACT_SOURCES;

export interface ContractArtifact {
  contractName: ContractName;
  abi: Abi;
  bytecode: Hex;
}

export class MissingArtifactError extends ServiceError {
  constructor(contractName: ContractName, path: string) {
    super(
      `No compiled artifact for ${contractName} at ${path}. Run \`npm run compile:contracts\` ` +
        "(offline: it uses the solc-js compiler from the solc npm package).",
    );
  }
}

export function artifactPath(contractName: ContractName): string {
  const source = CONTRACT_SOURCES[contractName];
  return join(REPO_ROOT, "artifacts", source, `${contractName}.json`);
}

export function readArtifact(contractName: ContractName): ContractArtifact {
  const path = artifactPath(contractName);
  if (!existsSync(path)) throw new MissingArtifactError(contractName, path);
  const artifact = JSON.parse(readFileSync(path, "utf8")) as { abi: Abi; bytecode: Hex };
  return { contractName, abi: artifact.abi, bytecode: artifact.bytecode };
}

export class CompileError extends ServiceError {
  constructor(output: string) {
    super(`hardhat compile failed; fix the contracts and rerun \`npm run compile:contracts\`:\n${output}`);
  }
}

/** Where the fingerprint of the sources the artifacts were last compiled from is kept (artifacts/ is not committed). */
export const SOURCES_STAMP = join(REPO_ROOT, "artifacts", ".sources-stamp");

/**
 * A digest of everything a compile reads: every Solidity file under contracts/, the Hardhat config and the
 * compiler and Hardhat versions installed.
 */
function sourcesFingerprint(): string {
  const hash = createHash("sha256");
  const sources = readdirSync(join(REPO_ROOT, "contracts"), { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".sol"))
    .sort();
  for (const file of [...sources.map((file) => join("contracts", file)), "hardhat.config.ts"]) {
    hash.update(`${file}\0`).update(readFileSync(join(REPO_ROOT, file)));
  }
  for (const pkg of ["solc", "hardhat"]) {
    const { version } = JSON.parse(readFileSync(require.resolve(`${pkg}/package.json`), "utf8")) as {
      version: string;
    };
    hash.update(`${pkg}@${version}\0`);
  }
  return hash.digest("hex");
}

function artifactsAreCurrent(fingerprint: string): boolean {
  if (!existsSync(SOURCES_STAMP) || readFileSync(SOURCES_STAMP, "utf8") !== fingerprint) return false;
  return Object.keys(CONTRACT_SOURCES).every((name) => existsSync(artifactPath(name as ContractName)));
}

/**
 * Runs `hardhat compile` in a child process, unless the artifacts were compiled from the sources as they are: loading
 * Hardhat for its own no-op costs ~1.7 s of CPU, and every local chain start (tests start dozens) asks for a compile.
 * A child process keeps Hardhat's global state out of callers such as the localnet launcher, and their event loop
 * free.
 */
export async function compileContracts(): Promise<void> {
  const fingerprint = sourcesFingerprint();
  if (artifactsAreCurrent(fingerprint)) return;
  try {
    await promisify(execFile)(
      process.execPath,
      [require.resolve("hardhat/internal/cli/cli"), "compile", "--quiet"],
      {
        cwd: REPO_ROOT,
      },
    );
  } catch (error) {
    const { stdout = "", stderr = "" } = error as { stdout?: string; stderr?: string };
    throw new CompileError(`${stdout}${stderr}`.trim() || String(error));
  }
  // Written whole, then renamed: a reader never sees half a stamp.
  const partial = `${SOURCES_STAMP}.${process.pid}`;
  writeFileSync(partial, fingerprint);
  renameSync(partial, SOURCES_STAMP);
}
