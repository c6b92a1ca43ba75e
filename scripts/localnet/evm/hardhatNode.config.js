// The Hardhat node's config: the Hardhat network and nothing else. The project's hardhat.config.ts is for
// compiling; loading it (ts-node, the viem toolbox) costs the node ~1 s of CPU at each local chain start.
// HARDHAT_NODE_CHAIN_ID (set by startHardhatNode's chainId) gives a second local chain its own id.
const chainId = process.env.HARDHAT_NODE_CHAIN_ID;
module.exports = chainId === undefined ? {} : { networks: { hardhat: { chainId: Number(chainId) } } };
