// The launch decisions on-chain guards verify: the Solana program's 265-byte Ed25519 message and the EVM guard's
// EIP-712 LaunchDecision (docs/onchain-guard.md). One definition of their bytes; signing is the caller's.

export type {
  EvmOnchainDecision,
  OnchainDecision,
  OnchainDecisionRequest,
  SolanaOnchainDecision,
} from "./answer";
export {
  type EvmLaunchDecisionFields,
  LAUNCH_DECISION_DOMAIN_NAME,
  LAUNCH_DECISION_DOMAIN_VERSION,
  LAUNCH_DECISION_ENCODED_TYPE,
  LAUNCH_DECISION_TYPES,
  type LaunchDecisionDomain,
  type LaunchDecisionMessage,
  type LaunchDecisionTypedData,
  launchDecisionDigest,
  launchDecisionDomain,
  launchDecisionTypedData,
} from "./evmLaunchDecision";
export {
  type BytesInput,
  LAUNCH_DECISION_VALUES,
  LaunchDecisionFieldError,
  type LaunchDecisionValue,
  type SolanaKeyInput,
  type UnixSecondsInput,
} from "./fields";
export {
  SOLANA_LAUNCH_DECISION_DOMAIN,
  SOLANA_LAUNCH_DECISION_NONCE_SIZE,
  SOLANA_LAUNCH_DECISION_OFFSETS,
  SOLANA_LAUNCH_DECISION_SIZE,
  type SolanaLaunchDecisionFields,
  solanaLaunchDecisionMessage,
} from "./solanaLaunchDecision";
