// The reconciler's reads: the mirror's hold of a reservation's pair, each chain's mirror cutoff, and the queues a
// pass works through. Queues are claimed with FOR UPDATE SKIP LOCKED so worker replicas split them; each query
// only narrows the candidates, reconcileRules decides.
import type { Pool, PoolClient } from "pg";
import { sameOnChainSql } from "../../core/address/equality";
import { EXPIRING_NOTICE_SECONDS } from "../../core/reservation";
import { freshnessOf } from "../../core/status";
import {
  CHECKPOINT_COLUMNS,
  type CheckpointRow,
  checkpointOf,
  readCheckpoints,
} from "../mirror/chainCatalogue";
import { type ChainHold, mirrorCutoff } from "./reconcileRules";
import { type Reservation, type ReservationRow, reservationOf } from "./record";

type Db = Pool | PoolClient;

interface HoldRow {
  launcher: string;
  reserved_at: Date;
  expires_at: Date;
  duration_seconds: number;
  fee_paid: string;
  partner_ref: string | null;
  tx_hash: string;
}

function holdOf(row: HoldRow): ChainHold {
  return {
    launcher: row.launcher,
    reservedAt: row.reserved_at,
    expiresAt: row.expires_at,
    durationSeconds: row.duration_seconds,
    feePaid: BigInt(row.fee_paid),
    partnerRef: row.partner_ref,
    txHash: row.tx_hash,
  };
}

/** What the mirror says about a reservation: its pair's hold, and how far its chain is known to be complete. */
export interface MirrorEvidence {
  hold: ChainHold | undefined;
  cutoff: Date | null;
}

/**
 * The mirror's hold of the reservation's pair and its chain's cutoff at `now`, read in one statement: one snapshot.
 * A revert takes rows out and sets the checkpoint back in one transaction (docs/indexers.md), so a hold missing here
 * is never paired with a cutoff read before the revert, which would vouch for it being missing on chain.
 */
export async function mirrorEvidence(
  db: Db,
  reservation: Reservation,
  now: Date,
  boundSeconds: number,
): Promise<MirrorEvidence> {
  const { rows } = await db.query<Partial<CheckpointRow> & Partial<HoldRow>>(
    `SELECT checkpoint.*, hold.* FROM (SELECT 1) one
       LEFT JOIN (SELECT ${CHECKPOINT_COLUMNS} FROM chain_checkpoints WHERE chain = $1) checkpoint ON true
       LEFT JOIN (SELECT launcher, reserved_at, expires_at, duration_seconds, fee_paid, partner_ref, tx_hash
                    FROM chain_reservations WHERE chain = $1 AND name_hash = $2 AND ticker_hash = $3) hold ON true`,
    [reservation.chain, reservation.nameHash, reservation.tickerHash],
  );
  const row = rows[0] ?? {};
  const checkpoint = row.chain == null ? undefined : checkpointOf(row as CheckpointRow);
  return {
    hold: row.launcher == null ? undefined : holdOf(row as HoldRow),
    cutoff: mirrorCutoff(freshnessOf(checkpoint, now, boundSeconds)),
  };
}

/** Each checkpointed chain's mirror cutoff at `now` (absent: never indexed, so no cutoff). */
export async function mirrorCutoffs(
  db: Db,
  now: Date,
  boundSeconds: number,
): Promise<Map<string, Date | null>> {
  const checkpointed = await readCheckpoints(db);
  return new Map(
    checkpointed.map((entry) => [
      entry.chain,
      mirrorCutoff(freshnessOf(entry.checkpoint, now, boundSeconds)),
    ]),
  );
}

/** A queue of the pass: candidates that may have something to do (SQL narrows, the rules decide). */
export type Queue = "settled" | "lapsing" | "windows";

interface QueueArgs {
  now: Date;
  /** Chains that have a cutoff, and their cutoffs. */
  chains: string[];
  cutoffs: Date[];
  /** Ids already looked at in this pass. */
  seen: readonly string[];
  limit: number;
}

const notSeen = (param: string) => `NOT (r.reservation_id = ANY(${param}::text[]))`;
const claim = (param: string) => `LIMIT ${param} FOR UPDATE OF r SKIP LOCKED`;
const CUTOFF_JOIN =
  "LEFT JOIN unnest($2::text[], $3::timestamptz[]) AS mirror (chain, cutoff) ON mirror.chain = r.chain";
const NOTICE = `make_interval(secs => ${EXPIRING_NOTICE_SECONDS})`;
const timeParams = (args: QueueArgs) => [args.now, args.chains, args.cutoffs, args.seen, args.limit];

const QUEUES: Record<Queue, { sql: string; params: (args: QueueArgs) => unknown[] }> = {
  // Prepares whose hold the mirror shows: by partnerRef (a reserve) or by the posted transaction hash.
  settled: {
    sql: `SELECT r.* FROM reservations r
      JOIN chain_reservations m ON m.chain = r.chain AND m.name_hash = r.name_hash AND m.ticker_hash = r.ticker_hash
      WHERE r.status IN ('pending_payment', 'submitted') AND NOT r.simulated AND ${notSeen("$1")}
        AND ${sameOnChainSql("r.family", "m.launcher", "r.launcher")}
        AND ((r.kind = 'reserve' AND lower(m.partner_ref) = r.partner_ref)
             OR ${sameOnChainSql("r.family", "m.tx_hash", "r.transaction_hash")})
      ORDER BY r.prepared_at ${claim("$2")}`,
    params: (args) => [args.seen, args.limit],
  },
  // Prepares past their lapse time that the mirror has seen past it (sandbox: no chain to wait for).
  lapsing: {
    sql: `SELECT r.* FROM reservations r ${CUTOFF_JOIN}
      WHERE (r.status = 'pending_payment' OR (r.status = 'submitted' AND r.simulated)) AND ${notSeen("$4")}
        AND r.lapses_at <= $1 AND (r.simulated OR r.lapses_at <= mirror.cutoff)
      ORDER BY r.lapses_at ${claim("$5")}`,
    params: timeParams,
  },
  // Confirmed windows that ended, entered their notice period unnotified, were extended on-chain, or lost their
  // settlement.
  windows: {
    sql: `SELECT r.* FROM reservations r ${CUTOFF_JOIN}
      WHERE r.status = 'confirmed' AND ${notSeen("$4")} AND (
        (r.expires_at <= $1 AND (r.simulated OR r.expires_at <= mirror.cutoff))
        OR (r.expires_at > $1 AND r.expires_at <= $1::timestamptz + ${NOTICE}
            AND (r.expiring_notified_at IS NULL OR r.expiring_notified_at < r.expires_at - ${NOTICE}))
        OR (NOT r.simulated AND EXISTS (
            SELECT 1 FROM chain_reservations m
             WHERE m.chain = r.chain AND m.name_hash = r.name_hash AND m.ticker_hash = r.ticker_hash
               AND ${sameOnChainSql("r.family", "m.launcher", "r.launcher")} AND m.reserved_at < r.expires_at
               AND m.expires_at > r.expires_at))
        -- Open windows whose settlement a fresh mirror no longer shows (a reorg): reconcileRules holdsSettlement.
        OR (NOT r.simulated AND r.expires_at > $1 AND mirror.cutoff IS NOT NULL AND NOT EXISTS (
            SELECT 1 FROM chain_reservations m
             WHERE m.chain = r.chain AND m.name_hash = r.name_hash AND m.ticker_hash = r.ticker_hash
               AND ${sameOnChainSql("r.family", "m.launcher", "r.launcher")}
               AND CASE WHEN r.kind = 'reserve' THEN m.reserved_at = r.starts_at
                        ELSE m.reserved_at < r.starts_at
                             AND m.expires_at >= r.starts_at + make_interval(secs => r.duration_seconds) END)))
      ORDER BY r.expires_at ${claim("$5")}`,
    params: timeParams,
  },
};

/** Claims up to `limit` rows of `queue` for the caller's transaction (rows other replicas hold are skipped). */
export async function claimQueue(
  client: PoolClient,
  queue: Queue,
  now: Date,
  cutoffs: ReadonlyMap<string, Date | null>,
  seen: readonly string[],
  limit: number,
): Promise<Reservation[]> {
  const known = [...cutoffs].filter((entry): entry is [string, Date] => entry[1] !== null);
  const { sql, params } = QUEUES[queue];
  const args = {
    now,
    chains: known.map(([chain]) => chain),
    cutoffs: known.map(([, cutoff]) => cutoff),
    seen,
    limit,
  };
  const { rows } = await client.query<ReservationRow>(sql, params(args));
  return rows.map(reservationOf);
}

/**
 * Claims submitted transactions to ask the chain about, oldest check first. The claim must outlive its
 * transaction (no transaction stays open across an RPC call), so it stamps `updated_at`: other replicas skip a
 * row for `leaseSeconds` after it was claimed.
 */
export async function claimSubmissions(
  pool: Pool,
  now: Date,
  leaseSeconds: number,
  limit: number,
): Promise<Reservation[]> {
  const { rows } = await pool.query<ReservationRow>(
    `UPDATE reservations SET updated_at = $1 WHERE reservation_id IN (
       SELECT reservation_id FROM reservations
        WHERE status = 'submitted' AND NOT simulated AND updated_at <= $1::timestamptz - make_interval(secs => $2)
        ORDER BY updated_at LIMIT $3 FOR UPDATE SKIP LOCKED)
     RETURNING *`,
    [now, leaseSeconds, limit],
  );
  return rows.map(reservationOf);
}

/** The row locked for the caller's transaction, or undefined when missing or another replica holds it. */
export async function lockReservation(
  client: PoolClient,
  reservationId: string,
): Promise<Reservation | undefined> {
  const { rows } = await client.query<ReservationRow>(
    "SELECT * FROM reservations WHERE reservation_id = $1 FOR UPDATE SKIP LOCKED",
    [reservationId],
  );
  const row = rows[0];
  return row === undefined ? undefined : reservationOf(row);
}
