// The sandbox's registries: the same chain names as production, priced at fixed reference prices and with
// transactions built offline by the same builders as the real clients (simulated: true). It never makes an RPC call.
//
// A sandbox transaction targets the chain's SANDBOX deployment from the manifest (a second EVM registry contract,
// a second deployment of the Solana program), never the production registry: signed and sent, it lands on the
// sandbox's own contract and creates no production reservation. A chain without a sandbox deployment gets no
// transaction at all (null), never one a production registry would accept.
//
// The simulated chain holds nothing: reservationOf and settlementOf are always null, activeReservationCount 0
// and every transaction `not_found`. Sandbox holds, availability and wallet counts live in the sandbox's own tables,
// which the API reads; a simulated prepare is confirmed by POST /v1/reservations/sandbox-confirm, never by a chain.
import { PublicKey } from "@solana/web3.js";
import { getAddress } from "viem";
import type { EvmManifestEntry, SolanaManifestEntry } from "../../config/manifest";
import type { NormalizedIdentity } from "../../core/fold";
import { defaultTierPriceUsdMicros, type ReservationDuration } from "../../core/reservation";
import type { ChainFamily } from "../../core/status";
import { feeWei } from "../evm/fee";
import {
  DEFAULT_LOCAL_PRICE_USD,
  DEFAULT_MAX_PRICE_AGE_SECONDS,
  LOCAL_FEED_DECIMALS,
  LOCAL_MIN_COMMITMENT_AGE_SECONDS,
  usdToFeedAnswer,
} from "../evm/settings";
import { registrySteps as evmSteps, isTransactionHash } from "../evm/transaction";
import type {
  GuardTarget,
  OnChainCommitment,
  OnChainReservation,
  PreparedSteps,
  RegistryClient,
  RegistryQuote,
  RegistrySettlement,
  RegistryStep,
  ReserveRequest,
  TransactionOutcome,
} from "../registryClient";
import { publicKeyOrNull } from "../solana/addresses";
import { isSignature } from "../solana/outcome";
import { feeLamports, priceUsdOf } from "../solana/price";
import { DEFAULT_MAX_PRICE_AGE_SECS, LOCAL_MIN_COMMITMENT_SLOTS } from "../solana/settings";
import { registryInstructionAccounts, registrySteps as solanaSteps } from "../solana/transaction";

/** Reference ETH price of simulated EVM chains: the local price feed's default answer (USD per ETH). */
export const SIMULATED_ETH_USD = DEFAULT_LOCAL_PRICE_USD;
/** Reference SOL price of simulated Solana chains, in Pyth's form: 150 USD per SOL. */
export const SIMULATED_SOL_PRICE = { price: 150_00000000n, exponent: -8 } as const;
/**
 * Blockhash of simulated Solana transactions: 32 zero bytes, which no cluster ever produced, so a simulated
 * transaction can never land anywhere (a wallet refuses it or the cluster answers BlockhashNotFound).
 */
export const SIMULATED_BLOCKHASH = PublicKey.default.toBase58();

export interface SimulatedRegistryOptions {
  /** Clock in ms since the epoch (the reference price is always published "now"); defaults to Date.now. */
  now?: () => number;
}

abstract class SimulatedRegistry implements RegistryClient {
  readonly simulated = true;
  abstract readonly family: ChainFamily;
  abstract readonly guardTarget: GuardTarget | null;
  protected readonly now: () => number;

  constructor(
    readonly chain: string,
    options: SimulatedRegistryOptions,
  ) {
    this.now = options.now ?? Date.now;
  }

  abstract quote(durationSeconds: ReservationDuration): Promise<RegistryQuote>;
  abstract prepareTransaction(request: ReserveRequest): Promise<PreparedSteps | null>;
  abstract isTransactionHash(value: string): boolean;

  async reservationOf(_identity: NormalizedIdentity): Promise<OnChainReservation | null> {
    return null;
  }

  async activeReservationCount(_launcher: string): Promise<number> {
    return 0;
  }

  async commitmentOf(_launcher: string, _commitment: `0x${string}`): Promise<OnChainCommitment | null> {
    return null;
  }

  async stepOf(_transactionHash: string): Promise<RegistryStep | null> {
    return null;
  }

  async transactionOutcome(_transactionHash: string): Promise<TransactionOutcome> {
    return { state: "not_found" };
  }

  async settlementOf(_transactionHash: string): Promise<RegistrySettlement | null> {
    return null;
  }

  /** A reference price published now, usable for the registry's default staleness bound. */
  protected priceWindow(maxAgeSeconds: number): { priceUpdatedAt: Date; expiresAt: Date } {
    const now = this.now();
    return { priceUpdatedAt: new Date(now), expiresAt: new Date(now + maxAgeSeconds * 1000) };
  }
}

export class SimulatedEvmRegistry extends SimulatedRegistry {
  readonly family = "evm" as const;
  readonly guardTarget: GuardTarget | null;

  constructor(
    private readonly entry: EvmManifestEntry,
    options: SimulatedRegistryOptions = {},
  ) {
    super(entry.chain, options);
    this.guardTarget =
      entry.sandbox === undefined
        ? null
        : { family: "evm", chainId: entry.chainId, registry: getAddress(entry.sandbox.registry) };
  }

  async quote(durationSeconds: ReservationDuration): Promise<RegistryQuote> {
    const usdMicros = defaultTierPriceUsdMicros(durationSeconds);
    return {
      chain: this.chain,
      durationSeconds,
      usdMicros,
      amount: feeWei(usdMicros, usdToFeedAnswer(SIMULATED_ETH_USD), LOCAL_FEED_DECIMALS),
      unit: "wei",
      priceUsd: SIMULATED_ETH_USD,
      ...this.priceWindow(DEFAULT_MAX_PRICE_AGE_SECONDS),
      simulated: true,
    };
  }

  async prepareTransaction(request: ReserveRequest): Promise<PreparedSteps | null> {
    const sandbox = this.entry.sandbox;
    if (sandbox === undefined) return null;
    return evmSteps(
      { chainId: this.entry.chainId, registry: sandbox.registry },
      request,
      this.entry.minCommitmentAgeSeconds ?? LOCAL_MIN_COMMITMENT_AGE_SECONDS,
    );
  }

  isTransactionHash(value: string): boolean {
    return isTransactionHash(value);
  }
}

export class SimulatedSolanaRegistry extends SimulatedRegistry {
  readonly family = "solana" as const;
  readonly guardTarget: GuardTarget | null;
  /** The sandbox deployment's program and price account; undefined without one. */
  private readonly deployment: { programId: PublicKey; priceAccount: PublicKey } | undefined;

  constructor(entry: SolanaManifestEntry, options: SimulatedRegistryOptions = {}) {
    super(entry.chain, options);
    this.guardTarget =
      entry.sandbox === undefined || entry.genesisHash === undefined
        ? null
        : { family: "solana", cluster: entry.genesisHash, registryProgram: entry.sandbox.programId };
    this.deployment =
      entry.sandbox === undefined
        ? undefined
        : {
            programId: new PublicKey(entry.sandbox.programId),
            priceAccount: new PublicKey(entry.sandbox.priceAccount),
          };
  }

  async quote(durationSeconds: ReservationDuration): Promise<RegistryQuote> {
    const usdMicros = defaultTierPriceUsdMicros(durationSeconds);
    const { price, exponent } = SIMULATED_SOL_PRICE;
    return {
      chain: this.chain,
      durationSeconds,
      usdMicros,
      amount: feeLamports(usdMicros, price, exponent),
      unit: "lamports",
      priceUsd: priceUsdOf(price, exponent),
      ...this.priceWindow(DEFAULT_MAX_PRICE_AGE_SECS),
      simulated: true,
    };
  }

  async prepareTransaction(request: ReserveRequest): Promise<PreparedSteps | null> {
    const launcher = publicKeyOrNull(request.launcher);
    if (!launcher)
      throw new TypeError(`launcher must be a base58 Solana public key, got ${request.launcher}`);
    if (this.deployment === undefined) return null;
    const { programId, priceAccount } = this.deployment;
    const accounts = registryInstructionAccounts(programId, priceAccount, launcher, request.identity);
    const recent = { blockhash: SIMULATED_BLOCKHASH, lastValidBlockHeight: 0 };
    return solanaSteps(programId, accounts, request, recent, LOCAL_MIN_COMMITMENT_SLOTS);
  }

  isTransactionHash(value: string): boolean {
    return isSignature(value);
  }
}
