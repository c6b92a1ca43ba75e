// Shared by the reconciler tests: reservations as prepare records them, the chain mirror and checkpoints as the
// indexers write them (that table is their interface), and readers for the outcome (rows, ledger, outbox).
import type { Pool } from "pg";
import type {
  PreparedReveal,
  PreparedSteps,
  RegistryCatalogue,
  RegistryClient,
} from "../../../chains/registryClient";
import type { Environment } from "../../../core/environment";
import { normalizeIdentity } from "../../../core/fold";
import {
  newReservationId,
  PREPARE_TTL_SECONDS,
  partnerRefOf,
  type ReservationDuration,
  revenueShareSnapshot,
  STANDARD_INTRODUCTORY_PERIOD_DAYS,
  STANDARD_PARTNER_BPS,
} from "../../../core/reservation";
import type { ChainFamily } from "../../../core/status";
import { draftLedgerEntry } from "../../../services/reservations/ledger";
import type { ReconcileDeps } from "../../../services/reservations/reconcile";
import type { ChainHold } from "../../../services/reservations/reconcileRules";
import { type Reservation, UNPAID_OUTCOME } from "../../../services/reservations/record";
import { insertReservation, reservationById, transition } from "../../../services/reservations/store";
import { withTransaction } from "../../../storage/transaction";
import { createTestDatabase, type TestDatabase } from "../../support/testDatabase";

export const PARTNER = "partner_reconcile";
export const EVM_LAUNCHER = "0xabcdef0123456789abcdef0123456789abcdef01";
export const SOL_LAUNCHER = "4P1kx8H2nHkzxo7WceTozeJiAA2pTF2n14RKqBMKfazZ";
export const DAY = 86_400;

export const seconds = (base: Date, offset: number) => new Date(base.getTime() + offset * 1000);

export interface PrepareOptions {
  /** The id whose partnerRef a prepared transaction carries; default a new one. */
  reservationId?: string;
  name?: string;
  ticker?: string;
  chain?: string;
  family?: ChainFamily;
  launcher?: string;
  kind?: Reservation["kind"];
  durationSeconds?: ReservationDuration;
  environment?: Environment;
  simulated?: boolean;
  partnerId?: string | null;
  /** When the partner integrated (null: unattributed share); default long ago, so the standard split applies. */
  integratedAt?: Date | null;
  quoteAmount?: bigint;
  /** The prepared steps the registry client built; default a placeholder commitment and, for a reserve, reveal. */
  steps?: PreparedSteps;
  preparedAt: Date;
  /** An embed prepare attributed through this launchpad; default a partner-key prepare. */
  launchpad?: string;
}

/** A placeholder EVM transaction: tests that never send it need only its shape. */
const PLACEHOLDER_TRANSACTION: PreparedSteps["transaction"] = {
  family: "evm",
  chainId: 31337,
  from: EVM_LAUNCHER,
  to: "0x0000000000000000000000000000000000000001",
  data: "0x",
  value: "0",
};

/** A placeholder reveal of a new reservation, for tests that never send it. */
const PLACEHOLDER_REVEAL: PreparedReveal = {
  transaction: PLACEHOLDER_TRANSACTION,
  commitment: `0x${"c0".repeat(32)}`,
  minCommitmentAge: { seconds: 1 },
  maxCommitmentAgeSeconds: 86_400,
};

/** A reservation recorded as prepare records it (pending_payment, with its ledger draft). */
export async function prepare(pool: Pool, options: PrepareOptions): Promise<Reservation> {
  const family = options.family ?? "evm";
  const kind = options.kind ?? "reserve";
  const steps = options.steps ?? {
    transaction: PLACEHOLDER_TRANSACTION,
    reveal: kind === "reserve" ? PLACEHOLDER_REVEAL : null,
  };
  const identity = normalizeIdentity(options.name ?? "Reconcile Coin", options.ticker ?? "RCN");
  const reservationId = options.reservationId ?? newReservationId();
  const partnerId = options.partnerId === undefined ? PARTNER : options.partnerId;
  const integratedAt = options.integratedAt === undefined ? new Date(0) : options.integratedAt;
  const reservation: Reservation = {
    reservationId,
    environment: options.environment ?? "production",
    partnerId,
    apiKeyId: null,
    launchpad: options.launchpad ?? null,
    source: options.launchpad === undefined ? "partner" : "embed",
    chain: options.chain ?? (family === "evm" ? "hardhat" : "solana"),
    family,
    kind,
    identityKey: identity.identityKey,
    normalizedName: identity.normalizedName,
    normalizedTicker: identity.normalizedTicker,
    nameHash: identity.nameHash,
    tickerHash: identity.tickerHash,
    launcher: options.launcher ?? (family === "evm" ? EVM_LAUNCHER : SOL_LAUNCHER),
    durationSeconds: options.durationSeconds ?? DAY,
    partnerRef: partnerRefOf(reservationId),
    usdMicros: 5_000_000n,
    quoteAmount: options.quoteAmount ?? 1_000_000n,
    quoteUnit: family === "evm" ? "wei" : "lamports",
    quoteExpiresAt: seconds(options.preparedAt, 600),
    simulated: options.simulated ?? false,
    transaction: steps.transaction,
    reveal: steps.reveal,
    commitTransactionHash: null,
    commitSubmittedAt: null,
    revenueShare: revenueShareSnapshot(
      partnerId,
      integratedAt === null
        ? null
        : {
            partnerBps: STANDARD_PARTNER_BPS,
            integrationStartedAt: integratedAt,
            introductoryPeriodDays: STANDARD_INTRODUCTORY_PERIOD_DAYS,
          },
      options.preparedAt,
    ),
    status: "pending_payment",
    statusReason: null,
    preparedAt: options.preparedAt,
    lapsesAt: seconds(options.preparedAt, PREPARE_TTL_SECONDS),
    ...UNPAID_OUTCOME,
  };
  await withTransaction(pool, async (client) => {
    await insertReservation(client, reservation);
    await draftLedgerEntry(client, reservation, options.preparedAt);
  });
  return reservation;
}

/** What POST /v1/reservations/status does with the hash of a paying transaction (a reveal or a renewal). */
export async function submit(
  pool: Pool,
  reservation: Reservation,
  hash: string,
  at: Date,
): Promise<Reservation> {
  const moved = await transition(pool, reservation.reservationId, "pending_payment", "submitted", {
    transaction_hash: hash,
    submitted_at: at,
  });
  if (moved === undefined) throw new Error("submit: not pending");
  return moved;
}

/** A confirmed window, as sandbox-confirm (or an earlier reconcile) leaves it. */
export async function confirmWindow(
  pool: Pool,
  reservation: Reservation,
  startsAt: Date,
  expiresAt: Date,
): Promise<Reservation> {
  const moved = await transition(pool, reservation.reservationId, reservation.status, "confirmed", {
    confirmed_at: startsAt,
    starts_at: startsAt,
    expires_at: expiresAt,
    fee_paid: reservation.quoteAmount.toString(),
  });
  if (moved === undefined) throw new Error("confirmWindow: status moved");
  return moved;
}

/** The mirror row as the reconciler reads it, plus where an indexer would have written it. */
export interface HoldRow extends ChainHold {
  chain?: string;
  blockNumber?: number;
}

/** Writes the pair's mirror row as an indexer does (insert, or replace the pair's current state). */
export async function mirrorHold(pool: Pool, reservation: Reservation, hold: HoldRow): Promise<void> {
  await pool.query(
    `INSERT INTO chain_reservations (chain, name_hash, ticker_hash, normalized_name, normalized_ticker, launcher,
       reserved_at, expires_at, duration_seconds, fee_paid, partner_ref, tx_hash, block_number)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
     ON CONFLICT (chain, name_hash, ticker_hash) DO UPDATE SET launcher = EXCLUDED.launcher,
       reserved_at = EXCLUDED.reserved_at, expires_at = EXCLUDED.expires_at, duration_seconds = EXCLUDED.duration_seconds,
       fee_paid = EXCLUDED.fee_paid, partner_ref = EXCLUDED.partner_ref, tx_hash = EXCLUDED.tx_hash,
       block_number = EXCLUDED.block_number, updated_at = now()`,
    [
      hold.chain ?? reservation.chain,
      reservation.nameHash,
      reservation.tickerHash,
      reservation.normalizedName,
      reservation.normalizedTicker,
      hold.launcher,
      hold.reservedAt,
      hold.expiresAt,
      hold.durationSeconds,
      hold.feePaid.toString(),
      hold.partnerRef,
      hold.txHash,
      hold.blockNumber ?? 1,
    ],
  );
}

/** A caught-up checkpoint whose data is complete as of `dataAsOf`. */
export async function checkpoint(
  pool: Pool,
  chain: string,
  family: ChainFamily,
  dataAsOf: Date,
): Promise<void> {
  await pool.query(
    `INSERT INTO chain_checkpoints (chain, family, head_number, head_seen_at, indexed_number, indexed_block_time, indexed_at)
     VALUES ($1, $2, 100, $3, 100, $3, $3)
     ON CONFLICT (chain) DO UPDATE SET head_seen_at = $3, indexed_block_time = $3, indexed_at = $3`,
    [chain, family, dataAsOf],
  );
}

export async function current(pool: Pool, reservation: Reservation): Promise<Reservation> {
  const found = await reservationById(pool, reservation.reservationId);
  if (found === undefined) throw new Error("reservation vanished");
  return found;
}

export interface OutboxEvent {
  type: string;
  environment: string;
  partnerId: string | null;
  payload: Record<string, unknown>;
}

/** The outbox's events about `reservationId`, oldest first. */
export async function eventsOf(pool: Pool, reservationId: string): Promise<OutboxEvent[]> {
  const { rows } = await pool.query<{
    type: string;
    environment: string;
    partner_id: string | null;
    payload: Record<string, unknown>;
  }>(
    // A hold's protection events name no reservation (a production one goes to every partner): a reserve's is
    // the identity.protected of the hold it started (or its transaction set), a renewal's the identity.extended
    // its transaction set.
    `SELECT type, environment, partner_id, payload FROM domain_events e
      WHERE payload->'reservation'->>'reservationId' = $1 OR payload->>'reservationId' = $1
         OR (payload->>'source' = 'reservation' AND EXISTS (
              SELECT 1 FROM reservations r
               WHERE r.reservation_id = $1 AND r.environment = e.environment
                 AND r.identity_key = e.payload->>'identityKey' AND r.chain = e.payload->>'chain'
                 AND CASE WHEN r.kind = 'reserve'
                          THEN e.type = 'identity.protected'
                               AND ((e.payload->'hold'->>'reservedAt')::timestamptz = r.starts_at
                                    OR lower(e.payload->'hold'->>'transactionHash') = lower(r.transaction_hash))
                          ELSE e.type = 'identity.extended'
                               AND lower(e.payload->'hold'->>'transactionHash') = lower(r.transaction_hash) END))
      ORDER BY id`,
    [reservationId],
  );
  return rows.map((row) => ({
    type: row.type,
    environment: row.environment,
    partnerId: row.partner_id,
    payload: row.payload,
  }));
}

export async function ledgerOf(
  pool: Pool,
  reservationId: string,
): Promise<{ status: string; feeAmount: string; partnerAmount: string } | undefined> {
  const { rows } = await pool.query<{ status: string; fee_amount: string; partner_amount: string }>(
    "SELECT status, fee_amount, partner_amount FROM partner_ledger_entries WHERE reservation_id = $1",
    [reservationId],
  );
  const row = rows[0];
  return row && { status: row.status, feeAmount: row.fee_amount, partnerAmount: row.partner_amount };
}

export async function clearTables(pool: Pool): Promise<void> {
  await pool.query(
    "TRUNCATE partner_ledger_entries, reservations, chain_reservations, chain_checkpoints, domain_events, hold_announcements CASCADE",
  );
}

/** A test database for the enclosing describe block, its tables cleared before each test. */
export function clearedTestDatabase(): { readonly pool: Pool } {
  let db: TestDatabase | undefined;
  const opened = (): TestDatabase => {
    if (db === undefined) throw new Error("the test database opens in the describe block's before hook");
    return db;
  };
  before(async () => {
    db = await createTestDatabase();
  });
  after(async () => {
    await db?.close();
  });
  beforeEach(async () => {
    await clearTables(opened().pool);
  });
  return {
    get pool() {
      return opened().pool;
    },
  };
}

const NO_REGISTRIES: RegistryCatalogue = { production: new Map(), sandbox: new Map() };

export function depsAt(
  pool: Pool,
  now: () => Date,
  registries: RegistryCatalogue = NO_REGISTRIES,
): ReconcileDeps {
  return { pool, registries, now, freshnessBoundSeconds: 60 };
}

export function catalogueOf(...clients: RegistryClient[]): RegistryCatalogue {
  return { production: new Map(clients.map((client) => [client.chain, client])), sandbox: new Map() };
}
