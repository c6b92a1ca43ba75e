// The Hardhat node's config: the default Hardhat network and nothing else. The project's hardhat.config.ts is
// for compiling; loading it (ts-node, the viem toolbox) costs the node ~1 s of CPU at each local chain start.
module.exports = {};
