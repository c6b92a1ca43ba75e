// The one announcement of an on-chain hold: `identity.protected` when the hold is new, `identity.extended` when a
// renewal moved its end. Both paths that learn of a hold call it, the worker's pass over the mirror
// (./holdAnnouncementPass.ts) and a prepared reservation's confirmation (reservations/confirmation.ts): it inserts
// the hold state into hold_announcements ON CONFLICT DO NOTHING and only the inserter appends the event, in the
// caller's transaction, so a hold state is announced once however many workers race and restarts follow.
// The event is a public fact of production (partnerId null: every partner could launch a copycat) and carries only
// what GET /v1/reservations?wallet already shows of the hold: no reservation id, partner or revenue share.
import type { PoolClient } from "pg";
import {
  CHAIN_RESERVATION_COLUMNS,
  type ChainReservationRow,
  chainReservationOf,
  type MirroredReservation,
} from "../../storage/chainReservations";
import { appendDomainEvents } from "../../storage/domainEvents";

/** What an announcement tells of a hold: a mirror row, or a sandbox confirmation's simulated hold (no block). */
export type AnnouncedHold = Pick<
  MirroredReservation,
  | "chain"
  | "normalizedName"
  | "normalizedTicker"
  | "launcher"
  | "reservedAt"
  | "expiresAt"
  | "durationSeconds"
> & { txHash: string | null; blockNumber: number | null };

export type HoldAnnouncement = "identity.protected" | "identity.extended";

/** `identity.protected` / `identity.extended` data of a hold (docs/webhooks.md, api/routes/webhookEventSchemas.ts). */
export function holdProtectionData(hold: AnnouncedHold): Record<string, unknown> {
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
      transactionHash: hold.txHash,
      blockNumber: hold.blockNumber,
    },
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
  const { rows } = await client.query<ChainReservationRow & { type: HoldAnnouncement }>(
    `WITH hold AS (
       SELECT ${CHAIN_RESERVATION_COLUMNS} FROM chain_reservations
        WHERE chain = $1 AND name_hash = $2 AND ticker_hash = $3 AND expires_at > $4
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
      payload: holdProtectionData(chainReservationOf(row)),
    },
  ]);
  return row.type;
}
