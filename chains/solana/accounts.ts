// The program's accounts (and the Clock sysvar) decoded from raw account data into typed values. Anchor's
// coder checks each account's 8-byte discriminator, so data of another type is refused, never misread.
import type { AccountInfo, PublicKey } from "@solana/web3.js";
import { registryCoder } from "./idl";
import type { PriceAccount } from "./price";

export interface RegistryConfig {
  admin: PublicKey;
  treasury: PublicKey;
  priceUpdate: PublicKey;
  priceOwner: PublicKey;
  /** 0x hex of the 32-byte Pyth feed id. */
  feedId: string;
  maxPriceAgeSecs: bigint;
  /** USD with 6 decimals, in the order of TIER_DURATIONS. */
  tierUsdMicros: bigint[];
  maxConfidenceBps: bigint;
  /** Slots a commitment rests before its reveal is accepted. */
  minCommitmentSlots: bigint;
}

export interface CommitmentAccount {
  launcher: PublicKey;
  /** 0x hex of the 32-byte commitment. */
  commitment: string;
  committedSlot: bigint;
  committedAt: bigint;
}

export interface ReservationAccount {
  launcher: PublicKey;
  nameHash: string;
  tickerHash: string;
  reservedAt: bigint;
  expiresAt: bigint;
  /** Cumulative, renewals included. */
  feeLamports: bigint;
  partnerRef: string;
  name: string;
  ticker: string;
}

export interface WalletSlot {
  reservation: PublicKey;
  expiresAt: bigint;
}

export interface WalletStateAccount {
  launcher: PublicKey;
  slots: WalletSlot[];
}

/** Integers as Anchor's BorshCoder decodes them (BN). */
interface Decimal {
  toString(): string;
}
interface RawConfig {
  admin: PublicKey;
  treasury: PublicKey;
  price_update: PublicKey;
  price_owner: PublicKey;
  feed_id: number[];
  max_price_age_secs: Decimal;
  tier_usd_micros: Decimal[];
  max_confidence_bps: Decimal | number;
  min_commitment_slots: Decimal;
}
interface RawCommitment {
  launcher: PublicKey;
  commitment: number[];
  committed_slot: Decimal;
  committed_at: Decimal;
}
interface RawPriceUpdate {
  verification_level: { Full?: unknown; Partial?: unknown };
  price_message: {
    feed_id: number[];
    price: Decimal;
    conf: Decimal;
    exponent: number;
    publish_time: Decimal;
  };
}
interface RawReservation {
  launcher: PublicKey;
  name_hash: number[];
  ticker_hash: number[];
  reserved_at: Decimal;
  expires_at: Decimal;
  fee_lamports: Decimal;
  partner_ref: number[];
  name: string;
  ticker: string;
}
interface RawWalletState {
  launcher: PublicKey;
  slots: { reservation: PublicKey; expires_at: Decimal }[];
}

const hex = (bytes: number[] | Uint8Array) => `0x${Buffer.from(bytes).toString("hex")}`;
const big = (value: Decimal) => BigInt(value.toString());
const decode = <T>(name: string, data: Buffer): T => registryCoder().accounts.decode<T>(name, data);

export function decodeConfig(data: Buffer): RegistryConfig {
  const raw = decode<RawConfig>("Config", data);
  return {
    admin: raw.admin,
    treasury: raw.treasury,
    priceUpdate: raw.price_update,
    priceOwner: raw.price_owner,
    feedId: hex(raw.feed_id),
    maxPriceAgeSecs: big(raw.max_price_age_secs),
    tierUsdMicros: raw.tier_usd_micros.map(big),
    maxConfidenceBps: BigInt(raw.max_confidence_bps.toString()),
    minCommitmentSlots: big(raw.min_commitment_slots),
  };
}

export function decodeCommitment(data: Buffer): CommitmentAccount {
  const raw = decode<RawCommitment>("Commitment", data);
  return {
    launcher: raw.launcher,
    commitment: hex(raw.commitment),
    committedSlot: big(raw.committed_slot),
    committedAt: big(raw.committed_at),
  };
}

export function decodePriceAccount(address: PublicKey, account: AccountInfo<Buffer>): PriceAccount {
  const raw = decode<RawPriceUpdate>("PriceUpdateV2", account.data);
  return {
    address,
    owner: account.owner,
    verifiedFull: raw.verification_level.Full !== undefined,
    feedId: hex(raw.price_message.feed_id),
    price: big(raw.price_message.price),
    conf: big(raw.price_message.conf),
    exponent: raw.price_message.exponent,
    publishTime: big(raw.price_message.publish_time),
  };
}

export function decodeReservation(data: Buffer): ReservationAccount {
  const raw = decode<RawReservation>("Reservation", data);
  return {
    launcher: raw.launcher,
    nameHash: hex(raw.name_hash),
    tickerHash: hex(raw.ticker_hash),
    reservedAt: big(raw.reserved_at),
    expiresAt: big(raw.expires_at),
    feeLamports: big(raw.fee_lamports),
    partnerRef: hex(raw.partner_ref),
    name: raw.name,
    ticker: raw.ticker,
  };
}

/** An account as an RPC read returns it: its owner (base58) and its data. */
export interface RawAccount {
  owner: string;
  data: Buffer;
}

/**
 * The Reservation `account` holds, or null when it holds none: absent (closed), owned by another program, or
 * another of the program's types (WalletState, Config). Reads are refused by owner and discriminator, never misread.
 */
export function reservationHeldBy(account: RawAccount | null, programId: string): ReservationAccount | null {
  if (account === null || account.owner !== programId) return null;
  const discriminator = registryCoder().accounts.accountDiscriminator("Reservation");
  if (!account.data.subarray(0, discriminator.length).equals(discriminator)) return null;
  return decodeReservation(account.data);
}

export function decodeWalletState(data: Buffer): WalletStateAccount {
  const raw = decode<RawWalletState>("WalletState", data);
  return {
    launcher: raw.launcher,
    slots: raw.slots.map((slot) => ({ reservation: slot.reservation, expiresAt: big(slot.expires_at) })),
  };
}

/** Slots the program counts as taken at `now`: those whose reservation has not expired. */
export function activeSlots(wallet: WalletStateAccount, now: bigint): number {
  return wallet.slots.filter((slot) => slot.expiresAt > now).length;
}

/** Clock sysvar: slot, epoch_start_timestamp, epoch, leader_schedule_epoch, unix_timestamp (i64 at 32). */
const CLOCK_UNIX_TIMESTAMP_OFFSET = 32;

/** The chain's slot as its Clock sysvar holds it. */
export function clockSlot(data: Buffer): bigint {
  return data.readBigUInt64LE(0);
}

/** The chain's clock (unix seconds), the `now` the program checks prices and expiries against. */
export function clockUnixTimestamp(data: Buffer): bigint {
  return data.readBigInt64LE(CLOCK_UNIX_TIMESTAMP_OFFSET);
}
