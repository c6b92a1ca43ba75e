// The one announcement of an on-chain hold: `identity.protected` when the hold is new, `identity.extended` when a
// renewal moved its end. Both paths that learn of a hold call it, the worker's pass over the mirror
// (./holdAnnouncementPass.ts) and a prepared reservation's confirmation (reservations/confirmation.ts): it inserts
// the hold state into hold_announcements ON CONFLICT DO NOTHING and only the inserter appends the event, in the
// caller's transaction, so a hold state is announced once however many workers race and restarts follow.
// The event is a public fact of production (partnerId null: every partner could launch a copycat) and carries only
// what GET /v1/reservations?wallet already shows of the hold: no reservation id, partner or revenue share.
import type { PoolClient } from "pg";
import { appendDomainEvents } from "../../storage/domainEvents";

/** A mirror row of chain_reservations, as far as an announcement needs it. */
export interface MirrorHold {
  chain: string;
  nameHash: string;
  tickerHash: string;
  normalizedName: string;
  normalizedTicker: string;
  launcher: string;
  reservedAt: Date;
  expiresAt: Date;
  durationSeconds: number;
  transactionHash: string | null;
  blockNumber: number | null;
}

export type HoldAnnouncement = "identity.protected" | "identity.extended";

/** `identity.protected` / `identity.extended` data of a hold (docs/webhooks.md, api/routes/webhookEventSchemas.ts). */
export function holdProtectionData(hold: MirrorHold): Record<string, unknown> {
  return {
    source: "reservation",
    identityKey: `${hold.normalizedName}::${hold.normalizedTicker}`,
    chain: hold.chain,
    protectedUntil: hold.expiresAt.toISOString(),
    hold: {
      launcher: hold.launcher,
      reservedAt: hold.reservedAt.toISOString(),
      expiresAt: hold.expiresAt.toISOString(),
      durationSeconds: hold.durationSeconds,
      transactionHash: hold.transactionHash,
      blockNumber: hold.blockNumber,
    },
  };
}

interface MirrorHoldRow {
  chain: string;
  name_hash: string;
  ticker_hash: string;
  normalized_name: string;
  normalized_ticker: string;
  launcher: string;
  reserved_at: Date;
  expires_at: Date;
  duration_seconds: number;
  tx_hash: string;
  block_number: string;
}

const MIRROR_HOLD_COLUMNS = `m.chain, m.name_hash, m.ticker_hash, m.normalized_name, m.normalized_ticker,
  m.launcher, m.reserved_at, m.expires_at, m.duration_seconds, m.tx_hash, m.block_number`;

function mirrorHoldOf(row: MirrorHoldRow): MirrorHold {
  return {
    chain: row.chain,
    nameHash: row.name_hash,
    tickerHash: row.ticker_hash,
    normalizedName: row.normalized_name,
    normalizedTicker: row.normalized_ticker,
    launcher: row.launcher,
    reservedAt: row.reserved_at,
    expiresAt: row.expires_at,
    durationSeconds: row.duration_seconds,
    transactionHash: row.tx_hash,
    blockNumber: Number(row.block_number),
  };
}

/** A pair of the mirror (its primary key). */
export interface MirrorPair {
  chain: string;
  nameHash: string;
  tickerHash: string;
}

/**
 * Announces the mirror's live hold of `pair` in its current state: records the state and, when this call inserted
 * it, appends its broadcast event. Answers the type announced, or undefined when there is no live hold or its state
 * was announced before (or is the first deploy's watermark). An earlier state of the same hold (same pair, same
 * start) makes this one an extension. One statement reads the hold and records it, so the key is the mirror's own
 * value (timestamps to the microsecond) and the event describes exactly the state recorded.
 */
export async function announceHold(
  client: PoolClient,
  pair: MirrorPair,
  now: Date,
): Promise<HoldAnnouncement | undefined> {
  const { rows } = await client.query<MirrorHoldRow & { type: HoldAnnouncement }>(
    `WITH hold AS (
       SELECT ${MIRROR_HOLD_COLUMNS} FROM chain_reservations m
        WHERE m.chain = $1 AND m.name_hash = $2 AND m.ticker_hash = $3 AND m.expires_at > $4
     ), inserted AS (
       INSERT INTO hold_announcements (chain, name_hash, ticker_hash, reserved_at, expires_at, announced_at, type)
       SELECT h.chain, h.name_hash, h.ticker_hash, h.reserved_at, h.expires_at, $4,
              CASE WHEN EXISTS (SELECT 1 FROM hold_announcements a
                                 WHERE a.chain = h.chain AND a.name_hash = h.name_hash AND a.ticker_hash = h.ticker_hash
                                   AND a.reserved_at = h.reserved_at AND a.expires_at < h.expires_at)
                   THEN 'identity.extended' ELSE 'identity.protected' END
         FROM hold h
       ON CONFLICT DO NOTHING RETURNING type
     )
     SELECT inserted.type, hold.* FROM inserted, hold`,
    [pair.chain, pair.nameHash, pair.tickerHash, now],
  );
  const row = rows[0];
  if (row === undefined) return undefined;
  await appendDomainEvents(client, [
    {
      type: row.type,
      environment: "production",
      partnerId: null,
      payload: holdProtectionData(mirrorHoldOf(row)),
    },
  ]);
  return row.type;
}
