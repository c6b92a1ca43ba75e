// Identity status engine: one pure decision from records, a chain, a launcher and an instant.
export { type ChainStatus, decideChainStatus, guardianBlockInForce, type StatusQuery } from "./decide";
export {
  type ChainCheckpoint,
  type ChainFreshness,
  checkpointDataAsOf,
  DEFAULT_FRESHNESS_BOUND_SECONDS,
  freshnessOf,
  LAG_BOUND_BLOCKS,
} from "./freshness";
export {
  isLockRefusal,
  type LockBasis,
  type LockBasisQuery,
  type LockRefusal,
  lockBasis,
  type PendingPrepare,
  type ReportedLaunch,
  reservedForLock,
} from "./lockBasis";
export {
  extendLock,
  HOLD_EXPIRY_SKEW_MS,
  isLive,
  LOCK_SECONDS,
  type LockExtension,
  liveHold,
  liveLockExpiry,
  lockDurationSeconds,
  longestLiveLock,
} from "./locks";
export { type ChainInput, decideAcrossChains, mostRestrictive, NoChainsError } from "./multiChain";
export {
  type GuardianRecord,
  type HoldRecord,
  type IdentityRecords,
  type LaunchRecord,
  type LockRecord,
  NO_RECORDS,
} from "./records";
export {
  assertNotSandboxScenario,
  type ChainFamily,
  isSandboxScenario,
  SANDBOX_DESIGNATED_LAUNCHER,
  SANDBOX_SCENARIO_KEYS,
  type SandboxChain,
  type SandboxScenario,
  sandboxScenarioRecords,
  sandboxScenarios,
} from "./sandboxScenarios";
export { identityTimeline, type TimelineEntry, type TimelineEntryType } from "./timeline";
export {
  CHECK_DECISIONS,
  type CheckDecision,
  DECISION_RESTRICTIVENESS,
  IDENTITY_STATUSES,
  type IdentityStatus,
  STATUS_REASONS,
  type StatusReason,
} from "./values";
