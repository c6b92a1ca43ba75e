// What the service needs from one chain's identity registry, whatever the family: a price quote from the feed the
// registry itself reads, the wallet's active count, the pair's record, a creator-signable transaction, and
// what became of a submitted transaction. One implementation per family (chains/evm, chains/solana) plus the
// sandbox's simulated one (chains/simulated), which never touches a chain.

import type { ExplorerTemplates } from "../config/explorer";
import { ServiceError } from "../core/errors/serviceError";
import type { NormalizedIdentity } from "../core/fold";
import type { ReservationDuration } from "../core/reservation";
import type { ChainFamily } from "../core/status";

export interface RegistryQuote {
  chain: string;
  durationSeconds: ReservationDuration;
  /** The tier's flat USD price with 6 decimals, as the registry stores it. */
  usdMicros: bigint;
  /** What the registry charges now, in the chain's smallest unit. */
  amount: bigint;
  unit: "wei" | "lamports";
  /** Native-currency price the amount comes from (USD per ETH/SOL) and when the feed published it. */
  priceUsd: number;
  priceUpdatedAt: Date;
  /** When the feed's answer becomes too old for the registry; the quote is void from then on. */
  expiresAt: Date;
  simulated: boolean;
}

export interface OnChainReservation {
  launcher: string;
  expiresAt: Date;
  active: boolean;
  /** Solana only: the rest of the record its Reservation account holds (EVM registries keep only the three above). */
  account?: OnChainReservationAccount;
}

/** A Solana Reservation account's whole record: what the indexer mirrors into a row. */
export interface OnChainReservationAccount {
  /** The account (the pair's reservation PDA), base58. */
  address: string;
  normalizedName: string;
  normalizedTicker: string;
  reservedAt: Date;
  /** Running total: the reservation fee plus every renewal fee, in lamports. */
  feePaid: bigint;
  /** bytes32 hex, lowercase; null when all zero. */
  partnerRef: `0x${string}` | null;
}

export interface ReserveRequest {
  identity: NormalizedIdentity;
  launcher: string;
  durationSeconds: ReservationDuration;
  /** bytes32 hex (core/reservation partnerRefOf). */
  partnerRef: `0x${string}`;
  /** `renew` extends the launcher's live reservation (renewal window only). */
  kind: "reserve" | "renew";
  /** The quote the transaction pays (EVM sends it plus headroom; Solana's program charges at execution). */
  quote: RegistryQuote;
  /**
   * A new reservation only: the 32 random bytes (hex) its commitment hides the pair behind, disclosed by the
   * reveal. Null for a renewal, which needs no commitment (only the holder renews).
   */
  secret: `0x${string}` | null;
}

/** EVM: an eth_sendTransaction request; amounts as decimal strings of wei. */
export interface EvmTransactionRequest {
  family: "evm";
  chainId: number;
  from: string;
  to: string;
  data: `0x${string}`;
  value: string;
}

/** Solana: a legacy transaction, unsigned, base64 of its wire bytes; the launcher is fee payer and only signer. */
export interface SolanaTransactionRequest {
  family: "solana";
  tx: string;
  feePayer: string;
  recentBlockhash: string;
  lastValidBlockHeight: number;
}

export type PreparedTransaction = EvmTransactionRequest | SolanaTransactionRequest;

/** How long a commitment must rest on-chain before its reveal is accepted: seconds on EVM, slots on Solana. */
export type CommitmentAge = { seconds: number } | { slots: number };

/** A new reservation's second transaction and what the first one commits to. */
export interface PreparedReveal {
  transaction: PreparedTransaction;
  /** bytes32 hex the commit records: a hash of the folded pair, launcher, duration, partner ref and secret. */
  commitment: `0x${string}`;
  minCommitmentAge: CommitmentAge;
  /** A commitment older than this no longer reveals: commit again. */
  maxCommitmentAgeSeconds: number;
}

/**
 * What a creator signs. A renewal is one transaction. A new reservation is two, so that nothing in the mempool
 * names the pair before it is sealed: `transaction` commits, `reveal` reserves once the commitment has matured.
 */
export interface PreparedSteps {
  transaction: PreparedTransaction;
  reveal: PreparedReveal | null;
}

/** Which registry step a transaction is, read from its own instruction or calldata. */
export type RegistryStep = "commit" | "reserve" | "renew";

/** A commitment the registry holds, and from when its reveal is accepted. */
export interface OnChainCommitment {
  committedAt: Date;
  /** EVM: the first block time the reveal is accepted; Solana: committedAt (the slot below decides). */
  revealableAt: Date;
  /** Solana: the first slot the reveal is accepted in. */
  revealableSlot: number | null;
}

/**
 * What the chain says about a submitted transaction: `succeeded`/`failed` once it is final enough for the
 * family (EVM: mined; Solana: confirmed), `pending` while known but not yet final, `not_found` when no node knows it.
 */
export type TransactionOutcome =
  | { state: "succeeded"; blockNumber: number }
  | { state: "failed"; blockNumber: number | null; error: string }
  | { state: "pending" }
  | { state: "not_found" };

/**
 * What a succeeded registry transaction did, decoded from its `Reserved`/`Renewed` event (EVM log; Solana
 * `ReservationCreated`/`ReservationRenewed` program log). The mirror keeps only a pair's running fee total and
 * the latest transaction, so the reconciler reads the fee of one transaction (a renewal's own fee) from here.
 */
export interface RegistrySettlement {
  kind: "reserve" | "renew";
  /** bytes32 hex, lowercase. */
  nameHash: `0x${string}`;
  tickerHash: `0x${string}`;
  /** EVM: lowercase 0x address; Solana: base58. */
  launcher: string;
  /** The pair's expiry after this transaction. */
  expiresAt: Date;
  /** What this transaction paid the registry, in the chain's smallest unit (a renewal: its own fee only). */
  feePaid: bigint;
  /** EVM only (from the event): the seconds this transaction reserved or added; Solana's account holds the window. */
  durationSeconds?: number;
  /** EVM only (from the event): the attribution it carried, bytes32 hex lowercase; null when all zero. */
  partnerRef?: `0x${string}` | null;
}

/**
 * The registry an on-chain launch guard of this environment reads, and what binds a signed launch decision to
 * its chain (docs/onchain-guard.md): EVM the chain id and registry; Solana the cluster's genesis hash and program.
 */
export type GuardTarget =
  | { family: "evm"; chainId: number; registry: `0x${string}` }
  | { family: "solana"; cluster: string; registryProgram: string };

export interface RegistryClient {
  chain: string;
  family: ChainFamily;
  simulated: boolean;
  /**
   * The registry launch guards of this environment read; null without a deployment here (a sandbox without its
   * own) or, on Solana, without the cluster's genesis hash in the manifest.
   */
  guardTarget: GuardTarget | null;
  /** Throws PriceUnavailableError when the feed's answer is stale or invalid. */
  quote(durationSeconds: ReservationDuration): Promise<RegistryQuote>;
  /** The pair's latest on-chain record, read from the registry (not the mirror); null when never reserved. */
  reservationOf(identity: NormalizedIdentity): Promise<OnChainReservation | null>;
  activeReservationCount(launcher: string): Promise<number>;
  /**
   * The creator-signable transactions. Null only from a simulated registry whose chain has no sandbox deployment
   * in the manifest: the sandbox never hands out a transaction a production registry would accept.
   */
  prepareTransaction(request: ReserveRequest): Promise<PreparedSteps | null>;
  /** The launcher's commitment as the registry holds it; null when it holds none (never made, revealed or closed). */
  commitmentOf(launcher: string, commitment: `0x${string}`): Promise<OnChainCommitment | null>;
  /**
   * Which registry step a transaction is, from its calldata (EVM, pending included) or its instructions (Solana,
   * once processed); null when no node knows it or it is no registry call.
   */
  stepOf(transactionHash: string): Promise<RegistryStep | null>;
  transactionOutcome(transactionHash: string): Promise<TransactionOutcome>;
  /**
   * The registry reservation a transaction made or renewed; null when no node knows it, it failed, or it emitted
   * no registry event (not a reservation). Throws ChainUnavailableError when the RPC does not answer, or cannot tell
   * (Solana logs truncated before the event).
   */
  settlementOf(transactionHash: string): Promise<RegistrySettlement | null>;
  /** Whether `value` is a well-formed transaction hash (EVM 0x + 64 hex) or signature (Solana base58) here. */
  isTransactionHash(value: string): boolean;
  /**
   * Whether a transaction that succeeded in `blockNumber` is final, so no reorg can remove it: EVM its block at or
   * below the chain's `finalized` block; Solana its signature status `finalized`. Absent: never final (the
   * simulated registries). Throws ChainUnavailableError when the RPC does not answer.
   */
  isFinal?(transactionHash: string, blockNumber: number): Promise<boolean>;
  /** Block-explorer URL templates of the chain (manifest `explorer`); null on chains without (local ones). */
  explorer?: ExplorerTemplates | null;
  /**
   * The address an explorer shows the pair's reservation at: Solana its account (PDA), EVM the registry contract
   * that holds it. Absent on the simulated registries.
   */
  reservationLocation?(identity: NormalizedIdentity): string;
  /** EVM chains with an RPC only: signed-message checks that contract accounts answer (ERC-1271). */
  messageVerifier?: EvmMessageVerifier;
}

/** Asks an EVM chain whether an address signed a message, so a smart account answers for itself (ERC-1271). */
export interface EvmMessageVerifier {
  chainId: number;
  /**
   * Whether `signature` proves `address` signed `message` (EIP-191): ECDSA recovery for a key, the contract's
   * isValidSignature for an account with code. `contract` says which one answered. Throws
   * ChainUnavailableError when the RPC does not answer.
   */
  verifyMessage(
    address: `0x${string}`,
    message: string,
    signature: `0x${string}`,
  ): Promise<{ valid: boolean; contract: boolean }>;
}

/** The registry's price feed is stale or invalid: no quote, and the registry would refuse the reservation too. */
export class PriceUnavailableError extends ServiceError {
  constructor(
    readonly chain: string,
    readonly detail: string,
  ) {
    super(`The ${chain} price feed cannot be used: ${detail}`);
  }
}

/** The chain's RPC endpoint did not answer; callers answer 503 and never guess. */
export class ChainUnavailableError extends ServiceError {
  constructor(
    readonly chain: string,
    cause: unknown,
  ) {
    super(
      `The ${chain} RPC endpoint did not answer: ${cause instanceof Error ? cause.message : String(cause)}`,
    );
  }
}

/**
 * Every chain's registry client per environment, keyed by the manifest's chain name: real clients for
 * production, simulated ones (same chains, never touching them) for the sandbox.
 */
export interface RegistryCatalogue {
  production: ReadonlyMap<string, RegistryClient>;
  sandbox: ReadonlyMap<string, RegistryClient>;
  /**
   * The sandbox's own deployments read over the chains' RPC (Solana), for the public chain helpers on the sandbox
   * host; a chain without a sandbox deployment has none.
   */
  sandboxDeployments?: ReadonlyMap<string, RegistryClient>;
}
