// The on-chain guard from a launchpad's side: what a launcher sends to a guarded factory (EVM) or launch program
// (Solana) from the `onchain` of POST /v1/launches/validate (docs/onchain-guard.md). Each chain also has its own
// entry (./evm, ./solana), so a launchpad installs only its chain's library (viem, @solana/web3.js).
export type { CallerClock } from "./decisionChecks";
export { OnchainDecisionError, type OnchainDecisionRefusal } from "./errors";
export {
  type EvmGuardedLaunch,
  GUARDED_LAUNCH_ABI,
  type GuardedLaunchArgs,
  type GuardedLaunchOptions,
  type GuardedTokenParams,
  guardedLaunchArgs,
  predictGuardedToken,
} from "./evm";
export {
  type GuardedLaunchInstructionsOptions,
  guardedLaunchInstructions,
  type SolanaAddress,
  type SolanaGuardedLaunch,
} from "./solana";
