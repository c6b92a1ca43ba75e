// The records an identity's status is decided from, one identity at a time, across all its chains.
// Gathered by the API from the chain mirror (reservations) and its own tables (everything else).

/** A reservation confirmed on-chain, or a sandbox hold seeded through the sandbox. */
export interface HoldRecord {
  kind: "reservation" | "sandbox_hold";
  chain: string;
  launcher: string;
  startsAt: Date;
  expiresAt: Date;
}

/** A copycat lock applied by a bonding or milestone report. */
export interface LockRecord {
  kind: "bonded" | "milestone";
  chain: string;
  /** Wallet allowed to launch while the lock lasts: the reported launch's launcher (lockBasis). Null (locks
   * applied before lockBasis existed): nobody. */
  authorizedLauncher: string | null;
  appliedAt: Date;
  expiresAt: Date;
  wasReserved: boolean;
}

/** A guardian's block or clear. `chain` null applies to every chain. */
export interface GuardianRecord {
  kind: "block" | "clear";
  chain: string | null;
  at: Date;
  /** Blocks only: a graduated block is permanent (no expiry) until a guardian clears it. */
  graduated: boolean;
  /** Blocks only: end of a temporary block; null for one that lasts until cleared. */
  expiresAt: Date | null;
  actor: string;
  reason: string;
}

/** A partner's report that a token launched (POST /v1/launches/report). Grants no lock. */
export interface LaunchRecord {
  chain: string;
  launcher: string;
  tokenOrMint: string;
  launchpad: string;
  at: Date;
}

export interface IdentityRecords {
  holds: readonly HoldRecord[];
  locks: readonly LockRecord[];
  guardian: readonly GuardianRecord[];
  launches: readonly LaunchRecord[];
}

export const NO_RECORDS: IdentityRecords = { holds: [], locks: [], guardian: [], launches: [] };
