// The project's Hardhat configuration for a second local EVM chain beside the default one (31337): chain id 1337
// (Ponder tells chains apart by id), still a development id (indexer/evm/chains.ts LOCAL_CHAIN_IDS). Started with
// `hardhat --config` by startHardhatChain; the root stays the repository's.
import path = require("node:path");
import base = require("../../../hardhat.config");

export = {
  ...base,
  paths: { root: path.join(__dirname, "..", "..", "..") },
  networks: { hardhat: { chainId: 1337 } },
};
