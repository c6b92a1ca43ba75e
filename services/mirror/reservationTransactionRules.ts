// What a reservation transaction a caller passed to the identity check means for the mirror, decided from what
// the chain said about it (no I/O): the row to write, or why nothing is written. reservationTransaction.ts asks
// the chain and writes.
import type { OnChainReservation, RegistrySettlement, TransactionOutcome } from "../../chains/registryClient";
import { sameOnChain } from "../../core/address/equality";
import type { NormalizedIdentity } from "../../core/fold";
import type { ChainFamily } from "../../core/status";
import type { MirroredReservation } from "../../storage/chainReservations";

/** What became of a passed transaction; only `indexed` means the mirror holds the state it produced. */
export const RESERVATION_TX_OUTCOMES = [
  "indexed",
  "pending",
  "not_final",
  "not_found",
  "failed",
  "not_a_reservation",
  "other_identity",
  "superseded",
  "renewal_base_missing",
  "chain_unavailable",
  "mirror_unavailable",
  "sandbox_not_indexed",
] as const;

export type ReservationTxOutcome = (typeof RESERVATION_TX_OUTCOMES)[number];

/** What each outcome tells a partner, and what to do. */
export const RESERVATION_TX_MESSAGES: Readonly<Record<ReservationTxOutcome, string>> = {
  indexed:
    "A final reservation (or renewal) of this identity on this chain: the mirror holds it now, and this answer reads it.",
  pending:
    "The chain knows this transaction but has not settled it yet; nothing changed. Pass it again once it is mined.",
  not_final:
    "A reservation of this identity, not yet final on its chain (a reorg could still remove it); nothing changed. The indexer mirrors it on its own, or pass it again once final.",
  not_found: "No node of this chain knows this transaction; nothing changed. Check the hash and the chain.",
  failed: "This transaction failed on-chain; it reserved nothing and nothing changed.",
  not_a_reservation:
    "This transaction made or renewed no reservation in this chain's registry (another contract or program, or the commit step); nothing changed. Pass the reveal (reserve) or renewal transaction.",
  other_identity: "This transaction reserved another identity, not this one; nothing changed.",
  superseded:
    "The registry's record of this identity has moved on since this transaction (a later renewal, or another holder after it expired); nothing changed. The check answers from the record the indexer mirrors.",
  renewal_base_missing:
    "A renewal of this identity whose reservation the mirror does not hold yet; nothing changed. Pass the reservation's own transaction, or wait for the indexer.",
  chain_unavailable:
    "The chain could not be asked in time; nothing changed, and this answer comes from the mirror alone. Pass the transaction again later.",
  mirror_unavailable: "The mirror could not be written; nothing changed. Pass the transaction again later.",
  sandbox_not_indexed:
    "The sandbox has no chain mirror (its holds are simulated: POST /v1/reservations, sandbox-confirm); a transaction is never looked up or mirrored from the sandbox host.",
};

/** Why no row is written, or the settled transaction's facts that decide the row. */
export type TransactionReading =
  | { outcome: Exclude<ReservationTxOutcome, "indexed"> }
  | { outcome: "settled"; blockNumber: number; settlement: RegistrySettlement };

/** The transaction's state before its settlement is read: only a success goes on. */
export function readingOfOutcome(outcome: TransactionOutcome): TransactionReading | { outcome: "succeeded" } {
  if (outcome.state === "succeeded") return { outcome: "succeeded" };
  if (outcome.state === "failed") return { outcome: "failed" };
  if (outcome.state === "pending") return { outcome: "pending" };
  return { outcome: "not_found" };
}

/** The settlement concerns this identity's pair (the registries key records by both hashes). */
export function settlesIdentity(settlement: RegistrySettlement, identity: NormalizedIdentity): boolean {
  return (
    settlement.nameHash.toLowerCase() === identity.nameHash.toLowerCase() &&
    settlement.tickerHash.toLowerCase() === identity.tickerHash.toLowerCase()
  );
}

/**
 * The registry's current record is the state this transaction produced: same holder, same expiry. Anything else
 * (renewed again since, or expired and taken by another wallet) is not this transaction's to mirror.
 */
export function recordIsSettlement(
  family: ChainFamily,
  record: OnChainReservation | null,
  settlement: RegistrySettlement,
): record is OnChainReservation {
  return (
    record !== null &&
    sameOnChain(family, record.launcher, settlement.launcher) &&
    record.expiresAt.getTime() === settlement.expiresAt.getTime()
  );
}

const secondsBefore = (instant: Date, seconds: number) => new Date(instant.getTime() - seconds * 1000);

/** The columns every row of the pair shares, from the record and the transaction. */
function rowBase(
  chain: string,
  identity: NormalizedIdentity,
  family: ChainFamily,
  record: OnChainReservation,
  hash: string,
  blockNumber: number,
) {
  return {
    chain,
    nameHash: identity.nameHash.toLowerCase(),
    tickerHash: identity.tickerHash.toLowerCase(),
    launcher: family === "evm" ? record.launcher.toLowerCase() : record.launcher,
    expiresAt: record.expiresAt,
    txHash: family === "evm" ? hash.toLowerCase() : hash,
    blockNumber,
  };
}

/**
 * The row the registry's record gives, as the indexers would write it: Solana from the Reservation account (the
 * whole record); an EVM reserve from its event (the registry keeps only holder and expiry; a reserve starts its
 * window at its block time, expiry minus duration); an EVM renewal from the mirror's row of the reservation it
 * renews, extended as the EVM indexer extends it. Null: an EVM renewal whose reservation the mirror lacks.
 */
export function mirroredRowOf(
  chain: string,
  family: ChainFamily,
  identity: NormalizedIdentity,
  record: OnChainReservation,
  reading: Extract<TransactionReading, { outcome: "settled" }>,
  hash: string,
  mirrored: MirroredReservation | undefined,
): MirroredReservation | null {
  const { settlement, blockNumber } = reading;
  const base = rowBase(chain, identity, family, record, hash, blockNumber);
  const names = { normalizedName: identity.normalizedName, normalizedTicker: identity.normalizedTicker };
  if (record.account !== undefined) {
    const { account } = record;
    return {
      ...base,
      normalizedName: account.normalizedName,
      normalizedTicker: account.normalizedTicker,
      reservedAt: account.reservedAt,
      durationSeconds: Math.round((record.expiresAt.getTime() - account.reservedAt.getTime()) / 1000),
      feePaid: account.feePaid,
      partnerRef: account.partnerRef,
      reservationAccount: account.address,
    };
  }
  const duration = settlement.durationSeconds;
  if (duration === undefined) return null;
  if (settlement.kind === "reserve") {
    return {
      ...base,
      ...names,
      reservedAt: secondsBefore(settlement.expiresAt, duration),
      durationSeconds: duration,
      feePaid: settlement.feePaid,
      partnerRef: settlement.partnerRef ?? null,
      reservationAccount: null,
    };
  }
  const renewed =
    mirrored !== undefined &&
    sameOnChain(family, mirrored.launcher, settlement.launcher) &&
    mirrored.expiresAt.getTime() === secondsBefore(settlement.expiresAt, duration).getTime();
  if (!renewed) return null;
  return {
    ...mirrored,
    expiresAt: base.expiresAt,
    durationSeconds: mirrored.durationSeconds + duration,
    feePaid: mirrored.feePaid + settlement.feePaid,
    txHash: base.txHash,
    blockNumber,
  };
}

/** The mirror already holds the state this transaction produced (the indexer, or an earlier check, wrote it). */
export function alreadyMirrored(
  family: ChainFamily,
  mirrored: MirroredReservation | undefined,
  hash: string,
  settlement: RegistrySettlement,
): boolean {
  return (
    mirrored !== undefined &&
    sameOnChain(family, mirrored.txHash, hash) &&
    mirrored.expiresAt.getTime() === settlement.expiresAt.getTime()
  );
}
