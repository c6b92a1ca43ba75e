// Client helpers for the identity_registry program through `@coral-xyz/anchor`: the Program object for any
// program id, config initialization and the local price account. Used by deploy, tests and the bench. The
// program's pure rules (PDAs, fee, tiers, IDL) live in chains/solana/ and are re-exported here.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { BN, type Idl, Program, type Provider } from "@coral-xyz/anchor";
import { Keypair, PublicKey } from "@solana/web3.js";
import { configAddress, localPriceAddress, treasuryAddress } from "../../chains/solana/addresses";
import { solanaCommitment } from "../../chains/solana/commitment";
import { loadIdl } from "../../chains/solana/idl";
import { DEFAULT_MAX_PRICE_AGE_SECS, LOCAL_MIN_COMMITMENT_SLOTS } from "../../chains/solana/settings";
import { DEFAULT_TIER_PRICES_USD_MICROS } from "../../core/reservation";
import type { IdentityRegistry } from "../../programs/identity_registry/idl/identity_registry";
import { programDataAddress } from "./upgradeable-loader";

export {
  commitmentAddress as commitmentAccountAddress,
  configAddress,
  localPriceAddress,
  reservationAddress,
  treasuryAddress,
  walletAddress,
} from "../../chains/solana/addresses";
export { IDL_PATH, loadIdl } from "../../chains/solana/idl";
export { feeLamports } from "../../chains/solana/price";
export {
  DEFAULT_MAX_PRICE_AGE_SECS,
  LOCAL_MIN_COMMITMENT_SLOTS,
  TIER_DURATIONS,
} from "../../chains/solana/settings";
export { MAX_COMMITMENT_AGE_SECONDS, RENEWAL_WINDOW_SECONDS } from "../../core/reservation";

export const PROGRAM_DIR = join(__dirname, "..", "..", "programs", "identity_registry");
export const PROGRAM_SO_PATH = join(PROGRAM_DIR, "build", "identity_registry.so");
/** Local development program keypair (committed on purpose; never use it on a public cluster). */
export const LOCAL_PROGRAM_KEYPAIR_PATH = join(PROGRAM_DIR, "keys", "local-dev-program-keypair.json");

/** Pyth receiver program: owner of PriceUpdateV2 accounts on mainnet and devnet. */
export const PYTH_RECEIVER_PROGRAM_ID = new PublicKey("rec5EKMGg6MxZYaMdyBfgwp4d5rB9T1VQH5pJv5LtFJ");
/** Pyth SOL/USD feed id. */
export const SOL_USD_FEED_ID = Buffer.from(
  "ef0d8b6fda2ceba41da15d4095d1da392a0d2f8ed0c6c7bc0f4cfac8c280b56d",
  "hex",
);

/**
 * Other clusters: 32 slots (about 13 s) between a commitment and its reveal, so a reveal a leader dropped can be
 * resent before a commitment made on seeing it matures, while the prepared reveal's blockhash (about 150 slots)
 * stays valid (docs/commit-reveal.md).
 */
export const DEFAULT_MIN_COMMITMENT_SLOTS = 32;
/** A price whose confidence interval exceeds 2% of the price is refused (PriceConfidenceTooWide). */
export const DEFAULT_MAX_CONFIDENCE_BPS = 200;
/** Entries of the config's decision signer set. */
export const DECISION_SIGNER_SLOTS = 4;

export type RegistryProgram = Program<IdentityRegistry>;

export function loadLocalProgramKeypair(): Keypair {
  return Keypair.fromSecretKey(Uint8Array.from(JSON.parse(readFileSync(LOCAL_PROGRAM_KEYPAIR_PATH, "utf8"))));
}

export function loadProgramBytes(): Buffer {
  return readFileSync(PROGRAM_SO_PATH);
}

/** The Anchor client for the program deployed at `programId` (the IDL names the local id). */
export function registryProgram(provider: Provider, programId: PublicKey | string): RegistryProgram {
  const idl = { ...loadIdl(), address: new PublicKey(programId).toBase58() };
  return new Program(idl as Idl, provider) as unknown as RegistryProgram;
}

export interface RegistrySettings {
  priceUpdate: PublicKey;
  priceOwner: PublicKey;
  feedId: Uint8Array;
  maxPriceAgeSecs: number;
  tierUsdMicros: readonly number[];
  /** Slots a commitment rests before its reveal is accepted (1..1000). */
  minCommitmentSlots: number;
  /** Largest confidence interval accepted, in basis points of the price (1..10000). */
  maxConfidenceBps: number;
}

export function configArgs(settings: RegistrySettings) {
  return {
    priceUpdate: settings.priceUpdate,
    priceOwner: settings.priceOwner,
    feedId: Array.from(settings.feedId),
    maxPriceAgeSecs: new BN(settings.maxPriceAgeSecs),
    tierUsdMicros: settings.tierUsdMicros.map((usd) => new BN(usd)),
    minCommitmentSlots: new BN(settings.minCommitmentSlots),
    maxConfidenceBps: settings.maxConfidenceBps,
  };
}

/**
 * The deployment defaults, reading the SOL/USD price from the PriceUpdateV2 account `priceUpdate` of `priceOwner`;
 * `minCommitmentSlots` defaults to DEFAULT_MIN_COMMITMENT_SLOTS (local clusters pass LOCAL_MIN_COMMITMENT_SLOTS).
 */
export function registrySettings(
  priceUpdate: PublicKey,
  priceOwner: PublicKey,
  minCommitmentSlots = DEFAULT_MIN_COMMITMENT_SLOTS,
): RegistrySettings {
  return {
    priceUpdate,
    priceOwner,
    feedId: SOL_USD_FEED_ID,
    maxPriceAgeSecs: DEFAULT_MAX_PRICE_AGE_SECS,
    tierUsdMicros: DEFAULT_TIER_PRICES_USD_MICROS.map(Number),
    minCommitmentSlots,
    maxConfidenceBps: DEFAULT_MAX_CONFIDENCE_BPS,
  };
}

/** Local settings: the program owns the price account (PDA ["price"]) and push_price writes it; 1-slot commitments. */
export function localSettings(programId: PublicKey): RegistrySettings {
  return registrySettings(localPriceAddress(programId), programId, LOCAL_MIN_COMMITMENT_SLOTS);
}

/** What a reveal discloses: the commitment is the keccak256 of these with the launcher (see `commitmentHash`). */
export interface RevealParams {
  /** The folded pair's keccak256 keys (core/fold `foldedHash`), 0x hex or bytes. */
  nameHash: string | Uint8Array;
  tickerHash: string | Uint8Array;
  durationSeconds: number;
  partnerRef: Uint8Array;
  secret: Uint8Array;
}

const hex = (value: string | Uint8Array): `0x${string}` =>
  typeof value === "string"
    ? (`0x${value.replace(/^0x/, "")}` as const)
    : (`0x${Buffer.from(value).toString("hex")}` as const);

/** The commitment as bytes (chains/solana/commitment.ts computes it for the service). */
export function commitmentHash(launcher: PublicKey, params: RevealParams): Buffer {
  const commitment = solanaCommitment({
    identity: { nameHash: hex(params.nameHash), tickerHash: hex(params.tickerHash) },
    launcher,
    durationSeconds: params.durationSeconds,
    partnerRef: hex(params.partnerRef),
    secret: hex(params.secret),
  });
  return Buffer.from(commitment.slice(2), "hex");
}

function walletKey(provider: Provider): PublicKey {
  if (!provider.publicKey) throw new TypeError("the provider needs a wallet");
  return provider.publicKey;
}

/** Creates the config; the provider's wallet must be the program's upgrade authority and becomes admin. */
export async function initializeRegistry(
  program: RegistryProgram,
  settings: RegistrySettings,
): Promise<string> {
  const admin = walletKey(program.provider);
  return program.methods
    .initialize(configArgs(settings))
    .accountsStrict({
      admin,
      config: configAddress(program.programId),
      treasury: treasuryAddress(program.programId),
      programData: programDataAddress(program.programId),
      systemProgram: PublicKey.default,
    })
    .rpc();
}

export interface LocalPrice {
  /** Price in units of 10^exponent USD per SOL, e.g. 150_00000000 with exponent -8 for $150. */
  price: bigint;
  exponent: number;
  publishTime: number;
  conf?: bigint;
}

/** Writes or refreshes the local PriceUpdateV2 account (admin only, local settings only). */
export async function pushLocalPrice(program: RegistryProgram, price: LocalPrice): Promise<string> {
  return program.methods
    .pushPrice(
      new BN(price.price.toString()),
      new BN((price.conf ?? 0n).toString()),
      price.exponent,
      new BN(price.publishTime),
    )
    .accountsStrict({
      admin: walletKey(program.provider),
      config: configAddress(program.programId),
      priceUpdate: localPriceAddress(program.programId),
      systemProgram: PublicKey.default,
    })
    .rpc();
}
