// A reservation as the service tracks it (the `reservations` table), and its public view.
import type { PreparedReveal, PreparedTransaction } from "../../chains/registryClient";
import type { Environment } from "../../core/environment";
import type { ReservationDuration, ReservationStatus, RevenueShareSnapshot } from "../../core/reservation";
import type { ChainFamily } from "../../core/status";

export interface Reservation {
  reservationId: string;
  environment: Environment;
  partnerId: string | null;
  apiKeyId: string | null;
  launchpad: string | null;
  source: "partner" | "embed";
  chain: string;
  family: ChainFamily;
  kind: "reserve" | "renew";
  identityKey: string;
  normalizedName: string;
  normalizedTicker: string;
  nameHash: `0x${string}`;
  tickerHash: `0x${string}`;
  launcher: string;
  durationSeconds: ReservationDuration;
  partnerRef: `0x${string}`;
  usdMicros: bigint;
  quoteAmount: bigint;
  quoteUnit: "wei" | "lamports";
  quoteExpiresAt: Date;
  simulated: boolean;
  /**
   * The first transaction to sign: a new reservation's commitment, a renewal itself. Null for a sandbox prepare on
   * a chain without a sandbox registry (chains/simulated).
   */
  transaction: PreparedTransaction | null;
  /** A new reservation's paying reveal, sent once the commitment matured; null for a renewal. */
  reveal: PreparedReveal | null;
  /** The commitment transaction a wallet reported, before its reveal. */
  commitTransactionHash: string | null;
  commitSubmittedAt: Date | null;
  revenueShare: RevenueShareSnapshot;
  status: ReservationStatus;
  statusReason: string | null;
  preparedAt: Date;
  lapsesAt: Date;
  transactionHash: string | null;
  submittedAt: Date | null;
  confirmedAt: Date | null;
  startsAt: Date | null;
  expiresAt: Date | null;
  feePaid: bigint | null;
  expiringNotifiedAt: Date | null;
  finishedAt: Date | null;
  settledAt: Date | null;
}

export interface ReservationRow {
  reservation_id: string;
  environment: Environment;
  partner_id: string | null;
  api_key_id: string | null;
  launchpad: string | null;
  source: "partner" | "embed";
  chain: string;
  family: ChainFamily;
  kind: "reserve" | "renew";
  identity_key: string;
  normalized_name: string;
  normalized_ticker: string;
  name_hash: `0x${string}`;
  ticker_hash: `0x${string}`;
  launcher: string;
  duration_seconds: ReservationDuration;
  partner_ref: `0x${string}`;
  usd_micros: string;
  quote_amount: string;
  quote_unit: "wei" | "lamports";
  quote_expires_at: Date;
  simulated: boolean;
  transaction: PreparedTransaction | null;
  reveal: PreparedReveal | null;
  commit_transaction_hash: string | null;
  commit_submitted_at: Date | null;
  revenue_share: RevenueShareSnapshot;
  status: ReservationStatus;
  status_reason: string | null;
  prepared_at: Date;
  lapses_at: Date;
  transaction_hash: string | null;
  submitted_at: Date | null;
  confirmed_at: Date | null;
  starts_at: Date | null;
  expires_at: Date | null;
  fee_paid: string | null;
  expiring_notified_at: Date | null;
  finished_at: Date | null;
  settled_at: Date | null;
}

export function reservationOf(row: ReservationRow): Reservation {
  return {
    reservationId: row.reservation_id,
    environment: row.environment,
    partnerId: row.partner_id,
    apiKeyId: row.api_key_id,
    launchpad: row.launchpad,
    source: row.source,
    chain: row.chain,
    family: row.family,
    kind: row.kind,
    identityKey: row.identity_key,
    normalizedName: row.normalized_name,
    normalizedTicker: row.normalized_ticker,
    nameHash: row.name_hash,
    tickerHash: row.ticker_hash,
    launcher: row.launcher,
    durationSeconds: row.duration_seconds,
    partnerRef: row.partner_ref,
    usdMicros: BigInt(row.usd_micros),
    quoteAmount: BigInt(row.quote_amount),
    quoteUnit: row.quote_unit,
    quoteExpiresAt: row.quote_expires_at,
    simulated: row.simulated,
    transaction: row.transaction,
    reveal: row.reveal,
    commitTransactionHash: row.commit_transaction_hash,
    commitSubmittedAt: row.commit_submitted_at,
    revenueShare: row.revenue_share,
    status: row.status,
    statusReason: row.status_reason,
    preparedAt: row.prepared_at,
    lapsesAt: row.lapses_at,
    transactionHash: row.transaction_hash,
    submittedAt: row.submitted_at,
    confirmedAt: row.confirmed_at,
    startsAt: row.starts_at,
    expiresAt: row.expires_at,
    feePaid: row.fee_paid === null ? null : BigInt(row.fee_paid),
    expiringNotifiedAt: row.expiring_notified_at,
    finishedAt: row.finished_at,
    settledAt: row.settled_at,
  };
}

const iso = (value: Date | null) => (value === null ? null : value.toISOString());

/** What GET/POST /v1/reservations/status answer (amounts as decimal strings: they exceed 2^53). */
export function reservationView(reservation: Reservation) {
  return {
    reservationId: reservation.reservationId,
    status: reservation.status,
    statusReason: reservation.statusReason,
    simulated: reservation.simulated,
    kind: reservation.kind,
    chain: reservation.chain,
    identityKey: reservation.identityKey,
    normalizedName: reservation.normalizedName,
    normalizedTicker: reservation.normalizedTicker,
    launcher: reservation.launcher,
    durationSeconds: reservation.durationSeconds,
    partnerRef: reservation.partnerRef,
    transactionHash: reservation.transactionHash,
    commit:
      reservation.reveal === null
        ? null
        : {
            commitment: reservation.reveal.commitment,
            transactionHash: reservation.commitTransactionHash,
            submittedAt: iso(reservation.commitSubmittedAt),
          },
    preparedAt: reservation.preparedAt.toISOString(),
    lapsesAt: reservation.lapsesAt.toISOString(),
    submittedAt: iso(reservation.submittedAt),
    confirmedAt: iso(reservation.confirmedAt),
    startsAt: iso(reservation.startsAt),
    expiresAt: iso(reservation.expiresAt),
    feePaid: reservation.feePaid === null ? null : reservation.feePaid.toString(),
    feeUnit: reservation.quoteUnit,
    launchpad: reservation.launchpad,
    settledAt: iso(reservation.settledAt),
    revenueShare: reservation.revenueShare,
  };
}
export type ReservationView = ReturnType<typeof reservationView>;

/** The outcome fields of a reservation no transaction has paid for yet: a prepare's. */
export const UNPAID_OUTCOME = {
  transactionHash: null,
  submittedAt: null,
  confirmedAt: null,
  startsAt: null,
  expiresAt: null,
  feePaid: null,
  expiringNotifiedAt: null,
  finishedAt: null,
  settledAt: null,
} as const satisfies Partial<Reservation>;
