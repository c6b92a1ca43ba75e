// The identity check's `tx` / `reservationTx`: asks the transaction's chain what it did (bounded, fail closed) and,
// when it is a final reservation or renewal of the checked identity that the registry still holds as it left it,
// mirrors the registry's record of the pair at once through the indexers' upsert, so the creator is protected
// before the indexer's next poll. Anything else changes nothing and says why. Rules: reservationTransactionRules.ts.
import type { Pool, PoolClient } from "pg";
import { ChainUnavailableError, type RegistryClient } from "../../chains/registryClient";
import { addressUrl, transactionUrl } from "../../config/explorer";
import type { Environment } from "../../core/environment";
import type { NormalizedIdentity } from "../../core/fold";
import {
  CHAIN_RESERVATION_COLUMNS,
  type ChainReservationRow,
  chainReservationOf,
  type MirroredReservation,
  upsertChainReservation,
} from "../../storage/chainReservations";
import { withTransaction } from "../../storage/transaction";
import {
  alreadyMirrored,
  mirroredRowOf,
  RESERVATION_TX_MESSAGES,
  type ReservationTxOutcome,
  readingOfOutcome,
  recordIsSettlement,
  settlesIdentity,
  type TransactionReading,
} from "./reservationTransactionRules";

/** How long the chain is asked, all questions together: past it the check answers from the mirror alone. */
export const TRANSACTION_LOOKUP_BOUND_MS = 3_000;

export interface ReservationTxView {
  hash: string;
  chain: string;
  outcome: ReservationTxOutcome;
  /** The mirror holds the state this transaction produced, so this answer reflects it. */
  indexed: boolean;
  message: string;
  /** Explorer pages of the transaction and of where the reservation lives; null on chains without templates. */
  explorer: { transaction: string; reservation: string } | null;
}

export interface TransactionLookup {
  environment: Environment;
  identity: NormalizedIdentity;
  chain: string;
  hash: string;
}

class LookupTimeoutError extends Error {}

function bounded<T>(work: Promise<T>, limitMs: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new LookupTimeoutError(`no answer in ${limitMs} ms`)), limitMs);
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

function explorerLinks(registry: RegistryClient | undefined, identity: NormalizedIdentity, hash: string) {
  const templates = registry?.explorer;
  if (templates == null || registry === undefined) return null;
  const location = registry.reservationLocation?.(identity);
  if (location === undefined) return null;
  return { transaction: transactionUrl(templates, hash), reservation: addressUrl(templates, location) };
}

/** What the chain says, read in order and stopped at the first answer that settles it. Throws on RPC failure. */
async function readTransaction(
  registry: RegistryClient,
  identity: NormalizedIdentity,
  hash: string,
): Promise<TransactionReading> {
  const outcome = await registry.transactionOutcome(hash);
  const early = readingOfOutcome(outcome);
  if (early.outcome !== "succeeded" || outcome.state !== "succeeded") return early as TransactionReading;
  const settlement = await registry.settlementOf(hash);
  if (settlement === null) return { outcome: "not_a_reservation" };
  if (!settlesIdentity(settlement, identity)) return { outcome: "other_identity" };
  const final = (await registry.isFinal?.(hash, outcome.blockNumber)) ?? false;
  if (!final) return { outcome: "not_final" };
  return { outcome: "settled", blockNumber: outcome.blockNumber, settlement };
}

/** The pair's mirror row, locked until the write (an EVM renewal extends it: two writers must not add twice). */
async function lockedRow(
  client: PoolClient,
  chain: string,
  identity: NormalizedIdentity,
): Promise<MirroredReservation | undefined> {
  const { rows } = await client.query<ChainReservationRow>(
    `SELECT ${CHAIN_RESERVATION_COLUMNS}
       FROM chain_reservations WHERE chain = $1 AND name_hash = $2 AND ticker_hash = $3 FOR UPDATE`,
    [chain, identity.nameHash.toLowerCase(), identity.tickerHash.toLowerCase()],
  );
  const row = rows[0];
  return row === undefined ? undefined : chainReservationOf(row);
}

/** Writes the registry's record of the pair when this transaction produced it; answers what happened. */
async function mirrorSettled(
  pool: Pool,
  registry: RegistryClient,
  lookup: TransactionLookup,
  reading: Extract<TransactionReading, { outcome: "settled" }>,
): Promise<ReservationTxOutcome> {
  const record = await registry.reservationOf(lookup.identity);
  if (!recordIsSettlement(registry.family, record, reading.settlement)) return "superseded";
  return withTransaction(pool, async (client) => {
    const mirrored = await lockedRow(client, lookup.chain, lookup.identity);
    if (alreadyMirrored(registry.family, mirrored, lookup.hash, reading.settlement)) return "indexed";
    const row = mirroredRowOf(
      lookup.chain,
      registry.family,
      lookup.identity,
      record,
      reading,
      lookup.hash,
      mirrored,
    );
    if (row === null) return "renewal_base_missing";
    await upsertChainReservation(client, row);
    return "indexed";
  });
}

function viewOf(
  lookup: TransactionLookup,
  registry: RegistryClient | undefined,
  outcome: ReservationTxOutcome,
  detail?: string,
): ReservationTxView {
  const message = RESERVATION_TX_MESSAGES[outcome];
  return {
    hash: lookup.hash,
    chain: lookup.chain,
    outcome,
    indexed: outcome === "indexed",
    message: detail === undefined ? message : `${message} (${detail})`,
    explorer:
      lookup.environment === "production" ? explorerLinks(registry, lookup.identity, lookup.hash) : null,
  };
}

/**
 * Looks `lookup.hash` up on its chain's production registry and mirrors it when it is a final reservation of the
 * identity. Never throws for the chain or the database: a failure is an outcome, and nothing is written. The
 * sandbox host never asks a chain: the sandbox has no mirror (its holds are simulated), and a production
 * transaction passed there must not reach production's.
 */
export async function indexReservationTransaction(
  pool: Pool,
  registries: ReadonlyMap<string, RegistryClient> | undefined,
  lookup: TransactionLookup,
  limitMs = TRANSACTION_LOOKUP_BOUND_MS,
): Promise<ReservationTxView> {
  const registry = registries?.get(lookup.chain);
  if (lookup.environment === "sandbox") return viewOf(lookup, registry, "sandbox_not_indexed");
  if (registry === undefined) {
    return viewOf(
      lookup,
      registry,
      "chain_unavailable",
      `no registry client is configured for ${lookup.chain}`,
    );
  }
  const started = Date.now();
  let reading: TransactionReading;
  try {
    reading = await bounded(readTransaction(registry, lookup.identity, lookup.hash), limitMs);
  } catch {
    // The RPC's own error is not shown: it can carry the node's URL, which may hold a provider key.
    return viewOf(lookup, registry, "chain_unavailable");
  }
  if (reading.outcome !== "settled") return viewOf(lookup, registry, reading.outcome);
  try {
    const remaining = Math.max(1, limitMs - (Date.now() - started));
    return viewOf(lookup, registry, await bounded(mirrorSettled(pool, registry, lookup, reading), remaining));
  } catch (error) {
    const chainFailed = error instanceof LookupTimeoutError || error instanceof ChainUnavailableError;
    return viewOf(lookup, registry, chainFailed ? "chain_unavailable" : "mirror_unavailable");
  }
}
