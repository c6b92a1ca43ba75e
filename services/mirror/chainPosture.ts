// `chain.degraded`: each chain's data-path posture sampled from its indexer checkpoint, announced once when the
// chain turns degraded (its decisions answer fail-closed) and once when it has recovered. The announced posture
// lives in chain_postures; a transition is an UPDATE guarded on the state read under a row lock, in the
// transaction that appends its events, so several workers never announce the same transition twice.
import type { Pool, PoolClient } from "pg";
import { ENVIRONMENTS } from "../../core/environment";
import { INDEXER_RESTART_ACTION } from "../../storage/audit";
import { appendDomainEvents, type DomainEvent } from "../../storage/domainEvents";
import { withTransaction } from "../../storage/transaction";
import { CHECKPOINT_COLUMNS, type ChainHealth, type CheckpointRow, chainHealthOf } from "./chainHealth";

/** A recovery is announced only after the chain has been healthy this long without a break (no flapping floods). */
export const DEFAULT_RECOVERY_DWELL_MS = 5 * 60_000;

export type PostureState = "healthy" | "degraded";

export interface Posture {
  state: PostureState;
  since: Date;
  /** While degraded: when the current unbroken run of healthy samples began. */
  healthySince: Date | null;
}

export interface PostureStep {
  next: Posture;
  announce: "degraded" | "recovered" | null;
}

/**
 * The posture after one sample. Degrading is announced at once (partners should stop relying on the chain);
 * recovering only once the chain has stayed healthy for `dwellMs`, and any degraded sample restarts that wait.
 */
export function nextPosture(current: Posture, healthy: boolean, now: Date, dwellMs: number): PostureStep {
  if (!healthy) {
    return current.state === "degraded"
      ? { next: { ...current, healthySince: null }, announce: null }
      : { next: { state: "degraded", since: now, healthySince: null }, announce: "degraded" };
  }
  if (current.state === "healthy") return { next: current, announce: null };
  const healthySince = current.healthySince ?? now;
  return now.getTime() - healthySince.getTime() >= dwellMs
    ? { next: { state: "healthy", since: healthySince, healthySince: null }, announce: "recovered" }
    : { next: { ...current, healthySince }, announce: null };
}

export type DegradedReason = "mirror_behind" | "not_indexed" | "indexer_stalled";

/** Why a chain is degraded, from its health: the indexer lags beyond the freshness bound, or has not indexed yet. */
function degradedReason(health: ChainHealth): DegradedReason {
  return health.status === "not_started" ? "not_indexed" : "mirror_behind";
}

/** The `data` of a chain.degraded event (docs/webhooks.md; WebhookEvent_chain.degraded in the OpenAPI document). */
export function chainDegradedData(
  health: ChainHealth,
  step: PostureStep & { announce: "degraded" | "recovered" },
  previous: Posture,
  boundSeconds: number,
  reason: DegradedReason = degradedReason(health),
) {
  return {
    chain: health.chain,
    family: health.family,
    state: step.announce,
    reason: step.announce === "degraded" ? reason : null,
    since: step.next.since.toISOString(),
    degradedSince: step.announce === "recovered" ? previous.since.toISOString() : null,
    headNumber: health.headNumber,
    indexedNumber: health.indexedNumber,
    lag: health.lag,
    indexedAt: health.indexedAt,
    freshnessBoundSeconds: boundSeconds,
  };
}

export interface PostureOptions {
  now: Date;
  boundSeconds: number;
  dwellMs: number;
}

async function lockedPosture(
  client: PoolClient,
  chain: string,
  now: Date,
): Promise<Posture & { sampledAt: Date }> {
  // A chain seen for the first time starts healthy, so a first sample that finds it degraded announces it.
  await client.query(
    `INSERT INTO chain_postures (chain, state, since, sampled_at) VALUES ($1, 'healthy', $2, $2)
     ON CONFLICT (chain) DO NOTHING`,
    [chain, now],
  );
  const { rows } = await client.query<{
    state: PostureState;
    since: Date;
    healthy_since: Date | null;
    sampled_at: Date;
  }>("SELECT state, since, healthy_since, sampled_at FROM chain_postures WHERE chain = $1 FOR UPDATE", [
    chain,
  ]);
  const row = rows[0];
  if (row === undefined) throw new Error(`chain_postures row of ${chain} vanished under its lock`);
  return { state: row.state, since: row.since, healthySince: row.healthy_since, sampledAt: row.sampled_at };
}

/** Samples one chain in one transaction; the announcement it made, if any. */
async function sampleChain(
  client: PoolClient,
  chain: string,
  options: PostureOptions,
): Promise<"degraded" | "recovered" | null> {
  const current = await lockedPosture(client, chain, options.now);
  const { rows } = await client.query<CheckpointRow>(
    `SELECT ${CHECKPOINT_COLUMNS} FROM chain_checkpoints WHERE chain = $1`,
    [chain],
  );
  const checkpoint = rows[0];
  if (checkpoint === undefined) return null;
  const health = chainHealthOf(checkpoint, options.now.getTime(), options.boundSeconds);
  // A watchdog restart since the last sample is a degraded sample whatever the freshness says.
  const restarts = await client.query(
    "SELECT 1 FROM audit_log WHERE subject = $1 AND action = $2 AND at > $3 LIMIT 1",
    [`chain:${chain}`, INDEXER_RESTART_ACTION, current.sampledAt],
  );
  const restarted = (restarts.rowCount ?? 0) > 0;
  const step = nextPosture(current, health.status === "ok" && !restarted, options.now, options.dwellMs);
  const { rowCount } = await client.query(
    `UPDATE chain_postures SET state = $2, since = $3, healthy_since = $4, sampled_at = $5
     WHERE chain = $1 AND state = $6`,
    [chain, step.next.state, step.next.since, step.next.healthySince, options.now, current.state],
  );
  if (rowCount !== 1 || step.announce === null) return null;
  const data = chainDegradedData(
    health,
    { ...step, announce: step.announce },
    current,
    options.boundSeconds,
    restarted ? "indexer_stalled" : degradedReason(health),
  );
  // A public fact about the service: every endpoint of both environments receives it.
  const events: DomainEvent[] = ENVIRONMENTS.map((environment) => ({
    type: "chain.degraded",
    environment,
    partnerId: null,
    payload: data,
  }));
  await appendDomainEvents(client, events);
  return step.announce;
}

export interface PostureChange {
  chain: string;
  announced: "degraded" | "recovered";
}

/** One sample of every chain the indexers have started; the transitions it announced. */
export async function sampleChainPostures(pool: Pool, options: PostureOptions): Promise<PostureChange[]> {
  const { rows } = await pool.query<{ chain: string }>("SELECT chain FROM chain_checkpoints ORDER BY chain");
  const changes: PostureChange[] = [];
  for (const { chain } of rows) {
    const announced = await withTransaction(pool, (client) => sampleChain(client, chain, options));
    if (announced !== null) changes.push({ chain, announced });
  }
  return changes;
}

/** Per chain: the announced posture and the watchdog's restarts, for /v1/health. */
export interface WatchdogState {
  chain: string;
  posture: PostureState;
  postureSince: string | null;
  restartsLast24h: number;
  lastRestartAt: string | null;
}

export async function readWatchdogStates(
  pool: Pool,
  chains: readonly string[],
  nowMs: number,
  queryTimeoutMs?: number,
): Promise<WatchdogState[]> {
  const timeout = queryTimeoutMs === undefined ? {} : { query_timeout: queryTimeoutMs };
  const { rows } = await pool.query<{
    chain: string;
    state: PostureState | null;
    since: Date | null;
    recent: string;
    last: Date | null;
  }>({
    // audit_log is read through its (subject, at) index.
    text: `SELECT c.chain, p.state, p.since,
              (SELECT count(*) FROM audit_log a
                WHERE a.subject = 'chain:' || c.chain AND a.action = $2 AND a.at > $3) AS recent,
              (SELECT max(a.at) FROM audit_log a WHERE a.subject = 'chain:' || c.chain AND a.action = $2) AS last
         FROM unnest($1::text[]) AS c(chain) LEFT JOIN chain_postures p ON p.chain = c.chain
        ORDER BY c.chain`,
    values: [chains, INDEXER_RESTART_ACTION, new Date(nowMs - 86_400_000)],
    ...timeout,
  });
  return rows.map((row) => ({
    chain: row.chain,
    posture: row.state ?? "healthy",
    postureSince: row.since?.toISOString() ?? null,
    restartsLast24h: Number(row.recent),
    lastRestartAt: row.last?.toISOString() ?? null,
  }));
}
