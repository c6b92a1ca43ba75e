// When the soak injects its faults, scaled to the run's length: the database restarted early and late, the
// Solana RPC cut in between, each followed by a quiet stretch in which recovery is measured.

export type FaultKind = "database_restart" | "solana_rpc_cut";

export interface PlannedFault {
  /** Metric prefix, e.g. database_restart_1. */
  name: string;
  kind: FaultKind;
  /** Seconds after the load starts. */
  atSeconds: number;
  /** How long the dependency stays away: the database's stop-to-start pause, or the cut. */
  outageSeconds: number;
}

export const DEFAULT_SOAK_SECONDS = 600;
export const MIN_SOAK_SECONDS = 60;
/** Long enough for pools and indexers to notice, short as an operator's restart. */
const DATABASE_OUTAGE_SECONDS = 5;
/** Longer than the 60 s freshness bound, so Solana decisions must turn to recheck_required during it. */
const FULL_RPC_CUT_SECONDS = 70;
/** A cut takes at most this share of a short run, leaving room for the recoveries around it. */
const MAX_CUT_SHARE = 0.3;

export function faultSchedule(totalSeconds: number): PlannedFault[] {
  const at = (share: number) => Math.round(totalSeconds * share);
  return [
    {
      name: "database_restart_1",
      kind: "database_restart",
      atSeconds: at(0.15),
      outageSeconds: DATABASE_OUTAGE_SECONDS,
    },
    {
      name: "solana_rpc_cut",
      kind: "solana_rpc_cut",
      atSeconds: at(0.4),
      outageSeconds: Math.min(FULL_RPC_CUT_SECONDS, Math.floor(totalSeconds * MAX_CUT_SHARE)),
    },
    {
      name: "database_restart_2",
      kind: "database_restart",
      atSeconds: at(0.75),
      outageSeconds: DATABASE_OUTAGE_SECONDS,
    },
  ];
}

/** SOAK_SECONDS, or the default; an unusable value is refused with what to set instead. */
export function soakSeconds(value: string | undefined): number {
  if (value === undefined || value === "") return DEFAULT_SOAK_SECONDS;
  const seconds = Number(value);
  if (!Number.isInteger(seconds) || seconds < MIN_SOAK_SECONDS)
    throw new Error(
      `SOAK_SECONDS must be a whole number of seconds, at least ${MIN_SOAK_SECONDS} (got "${value}"); the default is ${DEFAULT_SOAK_SECONDS}.`,
    );
  return seconds;
}
