// The chains decisions apply to: those of the deployment manifest plus any chain an indexer checkpoints.
// `chain` in API calls is the manifest's chain name.
import type { Pool, PoolClient } from "pg";
import type { DeploymentManifest } from "../../config/manifest";
import type { ChainCheckpoint, ChainFamily } from "../../core/status";

export interface ChainInfo {
  chain: string;
  family: ChainFamily;
}

export interface CheckpointedChain extends ChainInfo {
  checkpoint: ChainCheckpoint;
}

/** Chains named in a deployment manifest. */
export function manifestChains(manifest: DeploymentManifest): ChainInfo[] {
  return [
    ...manifest.evm.map(({ chain }) => ({ chain, family: "evm" as const })),
    ...manifest.solana.map(({ chain }) => ({ chain, family: "solana" as const })),
  ];
}

/** The columns checkpointOf reads, for every query of chain_checkpoints that feeds it. */
export const CHECKPOINT_COLUMNS =
  "chain, family, head_number, indexed_number, indexed_block_time, indexed_at, rewound_from";

/** A row of chain_checkpoints as CHECKPOINT_COLUMNS reads it. */
export interface CheckpointRow {
  chain: string;
  family: ChainFamily;
  head_number: string | null;
  indexed_number: string | null;
  indexed_block_time: Date | null;
  indexed_at: Date | null;
  rewound_from: string | null;
}

const numberOrNull = (value: string | null) => (value === null ? null : Number(value));

/** What the row says about the mirror's progress, for the freshness rule (core/status). */
export function checkpointOf(row: CheckpointRow): ChainCheckpoint {
  return {
    family: row.family,
    headNumber: numberOrNull(row.head_number),
    indexedNumber: numberOrNull(row.indexed_number),
    indexedBlockTime: row.indexed_block_time,
    indexedAt: row.indexed_at,
    rewoundFrom: numberOrNull(row.rewound_from),
  };
}

/** Every checkpointed chain (or only `chain`), with its checkpoint. */
export async function readCheckpoints(db: Pool | PoolClient, chain?: string): Promise<CheckpointedChain[]> {
  const { rows } = await db.query<CheckpointRow>(
    `SELECT ${CHECKPOINT_COLUMNS} FROM chain_checkpoints WHERE $1::text IS NULL OR chain = $1 ORDER BY chain`,
    [chain ?? null],
  );
  return rows.map((row) => ({ chain: row.chain, family: row.family, checkpoint: checkpointOf(row) }));
}

/** The configured chains followed by checkpointed ones not configured, without duplicates. */
export function mergeChains(
  configured: readonly ChainInfo[],
  checkpointed: readonly ChainInfo[],
): ChainInfo[] {
  const seen = new Set(configured.map((entry) => entry.chain));
  return [
    ...configured,
    ...checkpointed.filter((entry) => !seen.has(entry.chain)).map(({ chain, family }) => ({ chain, family })),
  ];
}
