// The instructions a test environment sends to the identity registry (programs/identity_registry) and the guarded
// launch program besides the launch itself: their configs, the local price, the decision signers, and a
// reservation's commit and reveal. Borsh arguments and account orders as in their IDLs.
import { createHash } from "node:crypto";
import { PublicKey, SystemProgram, TransactionInstruction } from "@solana/web3.js";
import { keccak256 } from "js-sha3";
import { foldV1 } from "../../../core/fold/fold";
import { foldedHashBytes } from "../../../core/fold/hash";
import { DEFAULT_TIER_PRICES_USD_MICROS } from "../../../core/reservation/policy";
import { borshString, concatBytes, i32, i64, u16, u64 } from "../onchainGuard/borsh";
import { configAddress, reservationAddress } from "../onchainGuard/solanaAddresses";
import { programDataAddress } from "./upgradeableLoader";

/** Pyth's SOL/USD feed id: the local price account carries it like a real PriceUpdateV2. */
const SOL_USD_FEED_ID = Buffer.from(
  "ef0d8b6fda2ceba41da15d4095d1da392a0d2f8ed0c6c7bc0f4cfac8c280b56d",
  "hex",
);
/** $150 per SOL, with no confidence interval. */
const SOL_PRICE = 150_00000000n;
const SOL_PRICE_EXPONENT = -8;
/** A price older than this is refused: reserve publishes one first. */
const MAX_PRICE_AGE_SECONDS = 60n;
/** One slot between a commitment and its reveal. */
const MIN_COMMITMENT_SLOTS = 1n;
const MAX_CONFIDENCE_BPS = 200;

type Meta = { pubkey: PublicKey; isSigner: boolean; isWritable: boolean };
const signer = (pubkey: PublicKey): Meta => ({ pubkey, isSigner: true, isWritable: true });
const writable = (pubkey: PublicKey): Meta => ({ pubkey, isSigner: false, isWritable: true });
const readonly = (pubkey: PublicKey): Meta => ({ pubkey, isSigner: false, isWritable: false });
const system = readonly(SystemProgram.programId);

/** sha256("global:<name>")[0..8]: an Anchor-style instruction's discriminator, as both programs' IDLs give it. */
function discriminator(name: string): Uint8Array {
  return createHash("sha256").update(`global:${name}`).digest().subarray(0, 8);
}

function instruction(programId: PublicKey, name: string, keys: Meta[], ...args: Uint8Array[]) {
  return new TransactionInstruction({
    programId,
    keys,
    data: Buffer.from(concatBytes(discriminator(name), ...args)),
  });
}

const pda = (programId: PublicKey, ...seeds: (string | Uint8Array)[]) =>
  PublicKey.findProgramAddressSync(
    seeds.map((seed) => (typeof seed === "string" ? new TextEncoder().encode(seed) : seed)),
    programId,
  )[0];
const priceAddress = (registry: PublicKey) => pda(registry, "price");
const treasuryAddress = (registry: PublicKey) => pda(registry, "treasury");

/** The registry's initialize with local settings: the price is its own PDA ["price"], written by pushPrice. */
export function initializeRegistry(registry: PublicKey, admin: PublicKey): TransactionInstruction {
  const configArgs = concatBytes(
    priceAddress(registry).toBytes(),
    registry.toBytes(), // the price account's owner
    SOL_USD_FEED_ID,
    u64(MAX_PRICE_AGE_SECONDS),
    ...DEFAULT_TIER_PRICES_USD_MICROS.map(u64),
    u64(MIN_COMMITMENT_SLOTS),
    u16(MAX_CONFIDENCE_BPS),
  );
  const keys = [
    signer(admin),
    writable(configAddress(registry)),
    writable(treasuryAddress(registry)),
    readonly(programDataAddress(registry)),
    system,
  ];
  return instruction(registry, "initialize", keys, configArgs);
}

/** The local SOL/USD price published at `publishTime`. */
export function pushPrice(
  registry: PublicKey,
  admin: PublicKey,
  publishTime: bigint,
): TransactionInstruction {
  const keys = [signer(admin), readonly(configAddress(registry)), writable(priceAddress(registry)), system];
  return instruction(
    registry,
    "push_price",
    keys,
    i64(SOL_PRICE),
    u64(0n),
    i32(SOL_PRICE_EXPONENT),
    i64(publishTime),
  );
}

export function setDecisionSigner(
  registry: PublicKey,
  admin: PublicKey,
  key: PublicKey,
  validFrom: bigint,
  validUntil: bigint,
): TransactionInstruction {
  const keys = [{ ...signer(admin), isWritable: false }, writable(configAddress(registry))];
  return instruction(registry, "set_decision_signer", keys, key.toBytes(), i64(validFrom), i64(validUntil));
}

/** The launch program's initialize: the registry it obeys and the cluster its decisions are for. */
export function initializeLaunchpad(
  launchpad: PublicKey,
  admin: PublicKey,
  registry: PublicKey,
  cluster: PublicKey,
): TransactionInstruction {
  const keys = [
    signer(admin),
    writable(configAddress(launchpad)),
    readonly(programDataAddress(launchpad)),
    system,
  ];
  return instruction(launchpad, "initialize", keys, registry.toBytes(), cluster.toBytes());
}

/** A new reservation of a pair: what commit seals and reserve (the reveal) discloses. */
export interface Reservation {
  launcher: PublicKey;
  name: string;
  ticker: string;
  durationSeconds: number;
  /** 32 random bytes. */
  secret: Uint8Array;
}

const NO_PARTNER = new Uint8Array(32);

/** keccak256(name_hash || ticker_hash || launcher || duration u64 LE || partner_ref || secret). */
function commitmentOf(reservation: Reservation): Uint8Array {
  const preimage = concatBytes(
    foldedHashBytes(foldV1(reservation.name)),
    foldedHashBytes(foldV1(reservation.ticker)),
    reservation.launcher.toBytes(),
    u64(BigInt(reservation.durationSeconds)),
    NO_PARTNER,
    reservation.secret,
  );
  return new Uint8Array(keccak256.arrayBuffer(preimage));
}

const commitmentAddress = (registry: PublicKey, reservation: Reservation) =>
  pda(registry, "commitment", reservation.launcher.toBytes(), commitmentOf(reservation));

export function commit(registry: PublicKey, reservation: Reservation): TransactionInstruction {
  const keys = [signer(reservation.launcher), writable(commitmentAddress(registry, reservation)), system];
  return instruction(registry, "commit", keys, commitmentOf(reservation));
}

export function reveal(registry: PublicKey, reservation: Reservation): TransactionInstruction {
  const { launcher, name, ticker } = reservation;
  const keys = [
    signer(launcher),
    readonly(configAddress(registry)),
    readonly(priceAddress(registry)),
    writable(reservationAddress(registry, foldedHashBytes(foldV1(name)), foldedHashBytes(foldV1(ticker)))),
    writable(pda(registry, "wallet", launcher.toBytes())),
    writable(treasuryAddress(registry)),
    system,
    writable(commitmentAddress(registry, reservation)),
  ];
  const args = [borshString(name), borshString(ticker), u64(BigInt(reservation.durationSeconds)), NO_PARTNER];
  return instruction(registry, "reserve", keys, ...args, reservation.secret);
}
