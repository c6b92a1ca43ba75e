// The partner revenue ledger: a `draft` entry when an attributed reservation is prepared, `accrued` only once it
// is confirmed (the spec: the ledger accrues only on on-chain confirmation; sandbox-confirm in the sandbox),
// `void` when it failed or lapsed. Amounts follow the reservation's immutable revenue-share snapshot.
import type { PoolClient } from "pg";
import { partnerAmountOf } from "../../core/reservation";
import type { Reservation } from "./record";

export interface LedgerEntry {
  reservationId: string;
  partnerId: string;
  status: "draft" | "accrued" | "void";
  unit: "wei" | "lamports";
  feeAmount: bigint;
  partnerAmount: bigint;
  usdMicros: bigint;
  partnerUsdMicros: bigint;
  partnerBps: number;
  introductory: boolean;
}

interface LedgerRow {
  reservation_id: string;
  partner_id: string;
  status: "draft" | "accrued" | "void";
  unit: "wei" | "lamports";
  fee_amount: string;
  partner_amount: string;
  usd_micros: string;
  partner_usd_micros: string;
  partner_bps: number;
  introductory: boolean;
}

function entryOf(row: LedgerRow): LedgerEntry {
  return {
    reservationId: row.reservation_id,
    partnerId: row.partner_id,
    status: row.status,
    unit: row.unit,
    feeAmount: BigInt(row.fee_amount),
    partnerAmount: BigInt(row.partner_amount),
    usdMicros: BigInt(row.usd_micros),
    partnerUsdMicros: BigInt(row.partner_usd_micros),
    partnerBps: row.partner_bps,
    introductory: row.introductory,
  };
}

/** A draft entry for an attributed reservation; nothing for an unattributed one. */
export async function draftLedgerEntry(
  client: PoolClient,
  reservation: Reservation,
  now: Date,
): Promise<void> {
  const share = reservation.revenueShare;
  if (reservation.partnerId === null) return;
  await client.query(
    `INSERT INTO partner_ledger_entries (reservation_id, environment, partner_id, launchpad, chain, unit, fee_amount,
       usd_micros, partner_bps, service_bps, partner_amount, partner_usd_micros, introductory, status, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, 'draft', $14)`,
    [
      reservation.reservationId,
      reservation.environment,
      reservation.partnerId,
      reservation.launchpad,
      reservation.chain,
      reservation.quoteUnit,
      reservation.quoteAmount.toString(),
      reservation.usdMicros.toString(),
      share.partnerBps,
      share.serviceBps,
      partnerAmountOf(reservation.quoteAmount, share).toString(),
      partnerAmountOf(reservation.usdMicros, share).toString(),
      share.introductory,
      now,
    ],
  );
}

/** Accrues the draft at the fee actually charged; the entry, or undefined when there was no draft to accrue. */
export async function accrueLedgerEntry(
  client: PoolClient,
  reservation: Reservation,
  feePaid: bigint,
  now: Date,
): Promise<LedgerEntry | undefined> {
  const { rows } = await client.query<LedgerRow>(
    `UPDATE partner_ledger_entries SET status = 'accrued', accrued_at = $2, fee_amount = $3, partner_amount = $4
     WHERE reservation_id = $1 AND status = 'draft' RETURNING *`,
    [
      reservation.reservationId,
      now,
      feePaid.toString(),
      partnerAmountOf(feePaid, reservation.revenueShare).toString(),
    ],
  );
  const row = rows[0];
  return row === undefined ? undefined : entryOf(row);
}

export async function voidLedgerEntry(client: PoolClient, reservationId: string, now: Date): Promise<void> {
  await client.query(
    "UPDATE partner_ledger_entries SET status = 'void', voided_at = $2 WHERE reservation_id = $1 AND status = 'draft'",
    [reservationId, now],
  );
}

/**
 * Takes back the accrual of a reservation whose confirmation a reorg undid: the entry is a draft again, to accrue at
 * the fee of the settlement that confirms it next or to be voided. An entry already in a payout plan stays as
 * planned (the revenue consistency check then shows it as accrued for an unconfirmed reservation).
 */
export async function reopenLedgerEntry(client: PoolClient, reservationId: string): Promise<void> {
  await client.query(
    `UPDATE partner_ledger_entries SET status = 'draft', accrued_at = NULL
      WHERE reservation_id = $1 AND status = 'accrued' AND payout_plan_id IS NULL`,
    [reservationId],
  );
}
