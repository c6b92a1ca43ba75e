// @identity-protection/sdk/testing: the identity registry and the guard in a launchpad's own tests (Node only).
// EVM: deploy the registry, its price feed and the reference guarded launchpad on a local chain through viem.
// Solana: load the registry and the guarded launch program into a LiteSVM, or deploy the launch program over a real
// RPC (a local validator). Both: `onchain` answers signed as the service signs them, by a test key. Never imported
// by the main entry, so a production bundle never carries them.
export { guardedLaunchpadArtifact } from "./contracts/guardedLaunchpad";
export { identityRegistryArtifact } from "./contracts/identityRegistry";
export { localPriceFeedArtifact } from "./contracts/localPriceFeed";
export type { DecisionSignerWindow } from "./decisionSignerWindow";
export {
  type DeployIdentityRegistryOptions,
  deployGuardedLaunchpad,
  deployIdentityRegistry,
  type TestIdentityRegistry,
  type TestWallet,
} from "./evm";
export { TestTransactionError } from "./liteSvm";
export { type DeployGuardedLaunchpadProgramOptions, deployGuardedLaunchpadProgram } from "./rpcPrograms";
export { airdroppedWallet, sendAndConfirmInstructions } from "./rpcTransactions";
export {
  type IdentityPrograms,
  LOCAL_LAUNCHPAD_PROGRAM_ID,
  LOCAL_REGISTRY_PROGRAM_ID,
  type LoadIdentityProgramsOptions,
  loadIdentityPrograms,
  MAINNET_BETA_GENESIS_HASH,
} from "./solana";
export {
  type EvmTestDecision,
  type SolanaTestDecision,
  signEvmTestDecision,
  signSolanaTestDecision,
} from "./testDecisions";
export { uncheckedLaunchInstructions } from "./uncheckedLaunch";
