// The Solana identity_registry program through a web3.js Connection: quotes priced and checked exactly as the
// program prices and checks them (its config, its price account, the chain's Clock), the pair's and the
// wallet's accounts, unsigned reserve/renew transactions, and signature statuses. Beyond RegistryClient it
// answers the public Solana helper endpoints (reserve context, recent blockhash).
import { type AccountInfo, Connection, PublicKey, SYSVAR_CLOCK_PUBKEY } from "@solana/web3.js";
import type { ExplorerTemplates } from "../../config/explorer";
import type { SolanaManifestEntry } from "../../config/manifest";
import type { NormalizedIdentity } from "../../core/fold";
import {
  isInRenewalWindow,
  RENEWAL_WINDOW_SECONDS,
  RESERVATION_DURATIONS,
  type ReservationDuration,
} from "../../core/reservation";
import {
  ChainUnavailableError,
  type GuardTarget,
  type OnChainCommitment,
  type OnChainReservation,
  type PreparedSteps,
  PriceUnavailableError,
  type RegistryClient,
  type RegistryQuote,
  type RegistrySettlement,
  type RegistryStep,
  type ReserveRequest,
  type TransactionOutcome,
} from "../registryClient";
import { DEFAULT_RPC_TIMEOUT_MS, fetchWithTimeout } from "../rpcTimeout";
import {
  activeSlots,
  clockUnixTimestamp,
  decodeCommitment,
  decodeConfig,
  decodePriceAccount,
  decodeReservation,
  decodeWalletState,
  type RegistryConfig,
  type ReservationAccount,
} from "./accounts";
import {
  commitmentAddress,
  configAddress,
  publicKeyOrNull,
  reservationAddress,
  walletAddress,
} from "./addresses";
import { logsTruncated, type RegistryEvent, registryEventDecoder } from "./events";
import { registryCoder } from "./idl";
import { isSignature, outcomeOfStatus } from "./outcome";
import { checkPrice, feeLamports, type PriceCheck, priceUsdOf } from "./price";
import { tierIndex } from "./settings";
import {
  type RecentBlockhash,
  type RegistryInstructionAccounts,
  registryInstructionAccounts,
  registrySteps,
} from "./transaction";

export interface SolanaRegistryClientOptions {
  timeoutMs?: number;
}

/** What a reserve or renew transaction needs, read in one round trip (the helper endpoint's answer). */
export interface ReserveContext {
  programId: PublicKey;
  accounts: RegistryInstructionAccounts;
  /** `renew` when the launcher holds the pair and its renewal window is open on the chain's clock. */
  instruction: "reserve" | "renew";
  /** The chain's clock (Clock sysvar) the answer was computed against. */
  chainTime: Date;
  tiers: { durationSeconds: ReservationDuration; usdMicros: bigint; lamports: bigint | null }[];
  /** The price check as the program would make it now. */
  price: PriceCheck;
  /** The pair's account, when it was ever reserved. */
  reservation: (ReservationAccount & { active: boolean; renewalOpensAt: Date }) | null;
  /** Reservations of the launcher still live on the chain's clock. */
  activeReservations: number;
  /** Slots a commitment rests before the program accepts its reveal. */
  minCommitmentSlots: number;
}

/** getMultipleAccountsInfo's answer per address: null when the account does not exist. */
type MaybeAccount = AccountInfo<Buffer> | null | undefined;

const secondsToDate = (seconds: bigint) => new Date(Number(seconds) * 1000);

const NO_PARTNER_REF = `0x${"0".repeat(64)}`;

const STEPS: readonly RegistryStep[] = ["commit", "reserve", "renew"];

/** The registry step an instruction's data encodes, by its Anchor discriminator. */
function stepOfData(data: Buffer): RegistryStep | null {
  let decoded: { name: string } | null;
  try {
    decoded = registryCoder().instruction.decode(data);
  } catch {
    return null; // a registry discriminator over malformed arguments: the program refused it
  }
  return decoded !== null && (STEPS as readonly string[]).includes(decoded.name)
    ? (decoded.name as RegistryStep)
    : null;
}

export class SolanaRegistryClient implements RegistryClient {
  readonly family = "solana" as const;
  readonly simulated = false;
  readonly chain: string;
  readonly programId: PublicKey;
  readonly priceAccount: PublicKey;
  readonly guardTarget: GuardTarget | null;
  readonly explorer: ExplorerTemplates | null;
  private readonly connection: Connection;
  private readonly decodeEvents: (logs: readonly string[]) => RegistryEvent[];

  constructor(entry: SolanaManifestEntry, options: SolanaRegistryClientOptions = {}) {
    this.chain = entry.chain;
    this.programId = new PublicKey(entry.programId);
    this.priceAccount = new PublicKey(entry.priceAccount);
    this.guardTarget =
      entry.genesisHash === undefined
        ? null
        : { family: "solana", cluster: entry.genesisHash, registryProgram: entry.programId };
    this.decodeEvents = registryEventDecoder(entry.programId);
    this.explorer = entry.explorer ?? null;
    this.connection = new Connection(entry.rpcUrl, {
      commitment: "confirmed",
      disableRetryOnRateLimit: true,
      fetch: fetchWithTimeout(options.timeoutMs ?? DEFAULT_RPC_TIMEOUT_MS),
    });
  }

  async quote(durationSeconds: ReservationDuration): Promise<RegistryQuote> {
    const { config, price } = await this.readPricing();
    if (!price.ok) throw new PriceUnavailableError(this.chain, price.detail);
    const usdMicros = this.tierUsdMicros(config, durationSeconds);
    return {
      chain: this.chain,
      durationSeconds,
      usdMicros,
      amount: feeLamports(usdMicros, price.price, price.exponent),
      unit: "lamports",
      priceUsd: priceUsdOf(price.price, price.exponent),
      priceUpdatedAt: secondsToDate(price.publishTime),
      expiresAt: secondsToDate(price.expiresAt),
      simulated: false,
    };
  }

  reservationLocation(identity: NormalizedIdentity): string {
    return reservationAddress(this.programId, identity.nameHash, identity.tickerHash).toBase58();
  }

  async reservationOf(identity: NormalizedIdentity): Promise<OnChainReservation | null> {
    const address = reservationAddress(this.programId, identity.nameHash, identity.tickerHash);
    const [account, clock] = await this.accounts([address, SYSVAR_CLOCK_PUBKEY]);
    if (!account) return null;
    const reservation = decodeReservation(account.data);
    return {
      launcher: reservation.launcher.toBase58(),
      expiresAt: secondsToDate(reservation.expiresAt),
      active: reservation.expiresAt > this.clockOf(clock),
      account: {
        address: address.toBase58(),
        normalizedName: reservation.name,
        normalizedTicker: reservation.ticker,
        reservedAt: secondsToDate(reservation.reservedAt),
        feePaid: reservation.feeLamports,
        partnerRef:
          reservation.partnerRef === NO_PARTNER_REF ? null : (reservation.partnerRef as `0x${string}`),
      },
    };
  }

  async activeReservationCount(launcher: string): Promise<number> {
    const [wallet, clock] = await this.accounts([
      walletAddress(this.programId, this.launcherKey(launcher)),
      SYSVAR_CLOCK_PUBKEY,
    ]);
    return wallet ? activeSlots(decodeWalletState(wallet.data), this.clockOf(clock)) : 0;
  }

  async prepareTransaction(request: ReserveRequest): Promise<PreparedSteps> {
    const accounts = this.instructionAccounts(request.identity, this.launcherKey(request.launcher));
    const [[config], recent] = await Promise.all([
      this.accounts([configAddress(this.programId)]),
      this.latestBlockhash(),
    ]);
    const { minCommitmentSlots } = this.configOf(config);
    return registrySteps(this.programId, accounts, request, recent, Number(minCommitmentSlots));
  }

  async commitmentOf(launcher: string, commitment: `0x${string}`): Promise<OnChainCommitment | null> {
    const address = commitmentAddress(this.programId, this.launcherKey(launcher), commitment);
    const [account, config] = await this.accounts([address, configAddress(this.programId)]);
    if (!account?.owner.equals(this.programId) || account.data.length === 0) return null;
    const held = decodeCommitment(account.data);
    const committedAt = secondsToDate(held.committedAt);
    return {
      committedAt,
      revealableAt: committedAt,
      revealableSlot: Number(held.committedSlot + this.configOf(config).minCommitmentSlots),
    };
  }

  /** The registry instruction the transaction runs at its top level (what a wallet signs), by discriminator. */
  async stepOf(signature: string): Promise<RegistryStep | null> {
    if (!isSignature(signature)) return null;
    const transaction = await this.rpc(() =>
      this.connection.getTransaction(signature, {
        commitment: "confirmed",
        maxSupportedTransactionVersion: 0,
      }),
    );
    if (!transaction) return null;
    const message = transaction.transaction.message;
    const keys = message.getAccountKeys({ accountKeysFromLookups: transaction.meta?.loadedAddresses });
    for (const instruction of message.compiledInstructions) {
      if (!keys.get(instruction.programIdIndex)?.equals(this.programId)) continue;
      const step = stepOfData(Buffer.from(instruction.data));
      if (step !== null) return step;
    }
    return null;
  }

  async transactionOutcome(signature: string): Promise<TransactionOutcome> {
    const statuses = await this.rpc(() =>
      this.connection.getSignatureStatuses([signature], { searchTransactionHistory: true }),
    );
    return outcomeOfStatus(statuses.value[0] ?? null);
  }

  /**
   * The program's ReservationCreated/ReservationRenewed event in a succeeded transaction's logs, also when another
   * program invoked the registry. Logs the runtime truncated before the event are no answer (ChainUnavailableError):
   * the reservation then settles from the mirror, which reads the accounts.
   */
  async settlementOf(signature: string): Promise<RegistrySettlement | null> {
    const transaction = await this.rpc(() =>
      this.connection.getTransaction(signature, {
        commitment: "confirmed",
        maxSupportedTransactionVersion: 0,
      }),
    );
    if (!transaction?.meta || transaction.meta.err) return null;
    const logs = transaction.meta.logMessages ?? [];
    const [event] = this.decodeEvents(logs);
    if (event === undefined && logsTruncated(logs)) {
      throw new ChainUnavailableError(
        this.chain,
        new Error(`the logs of ${signature} were truncated before any registry event`),
      );
    }
    if (event === undefined) return null;
    return {
      kind: event.kind === "created" ? "reserve" : "renew",
      nameHash: event.nameHash as `0x${string}`,
      tickerHash: event.tickerHash as `0x${string}`,
      launcher: event.launcher,
      expiresAt: secondsToDate(event.expiresAt),
      feePaid: event.feeLamports,
    };
  }

  isTransactionHash(value: string): boolean {
    return isSignature(value);
  }

  /** Final once its signature status is `finalized` (what the indexer reads by default). */
  async isFinal(signature: string): Promise<boolean> {
    const statuses = await this.rpc(() =>
      this.connection.getSignatureStatuses([signature], { searchTransactionHistory: true }),
    );
    return statuses.value[0]?.confirmationStatus === "finalized";
  }

  /** A blockhash for a new transaction, at `confirmed` (valid for about 150 blocks, ~60-90 s). */
  latestBlockhash(): Promise<RecentBlockhash> {
    return this.rpc(() => this.connection.getLatestBlockhash("confirmed"));
  }

  /** Everything a wallet needs to build a reserve (or renew) of the pair itself, from one read. */
  async reserveContext(identity: NormalizedIdentity, launcher: PublicKey): Promise<ReserveContext> {
    const accounts = this.instructionAccounts(identity, launcher);
    const [config, priceAccount, reservationAccount, wallet, clock] = await this.accounts([
      configAddress(this.programId),
      this.priceAccount,
      accounts.reservation,
      accounts.wallet,
      SYSVAR_CLOCK_PUBKEY,
    ]);
    const rules = this.configOf(config);
    const now = this.clockOf(clock);
    const price = this.priceCheck(rules, priceAccount, now);
    const chainTime = secondsToDate(now);
    const reservation = reservationAccount ? decodeReservation(reservationAccount.data) : null;
    const renewable = reservation
      ? reservation.launcher.equals(launcher) &&
        isInRenewalWindow(secondsToDate(reservation.expiresAt), chainTime)
      : false;
    return {
      programId: this.programId,
      accounts,
      instruction: renewable ? "renew" : "reserve",
      chainTime,
      tiers: RESERVATION_DURATIONS.map((durationSeconds) => {
        const usdMicros = this.tierUsdMicros(rules, durationSeconds);
        const lamports = price.ok ? feeLamports(usdMicros, price.price, price.exponent) : null;
        return { durationSeconds, usdMicros, lamports };
      }),
      price,
      reservation: reservation && {
        ...reservation,
        active: reservation.expiresAt > now,
        renewalOpensAt: secondsToDate(reservation.expiresAt - BigInt(RENEWAL_WINDOW_SECONDS)),
      },
      activeReservations: wallet ? activeSlots(decodeWalletState(wallet.data), now) : 0,
      minCommitmentSlots: Number(rules.minCommitmentSlots),
    };
  }

  private instructionAccounts(
    identity: NormalizedIdentity,
    launcher: PublicKey,
  ): RegistryInstructionAccounts {
    return registryInstructionAccounts(this.programId, this.priceAccount, launcher, identity);
  }

  private async readPricing(): Promise<{ config: RegistryConfig; price: PriceCheck }> {
    const [config, price, clock] = await this.accounts([
      configAddress(this.programId),
      this.priceAccount,
      SYSVAR_CLOCK_PUBKEY,
    ]);
    const rules = this.configOf(config);
    return { config: rules, price: this.priceCheck(rules, price, this.clockOf(clock)) };
  }

  private priceCheck(config: RegistryConfig, account: MaybeAccount, now: bigint): PriceCheck {
    if (!account) {
      return {
        ok: false,
        error: "PriceAccountMismatch",
        detail: `the price account ${this.priceAccount.toBase58()} named in the deployment manifest does not exist`,
      };
    }
    return checkPrice(config, decodePriceAccount(this.priceAccount, account), now);
  }

  private tierUsdMicros(config: RegistryConfig, durationSeconds: ReservationDuration): bigint {
    const usdMicros = config.tierUsdMicros[tierIndex(durationSeconds)];
    if (usdMicros === undefined) throw new RangeError(`No tier for ${durationSeconds} s.`);
    return usdMicros;
  }

  private configOf(account: MaybeAccount): RegistryConfig {
    if (!account) {
      throw new ChainUnavailableError(
        this.chain,
        new Error(
          `the registry config ${configAddress(this.programId).toBase58()} does not exist: is program ${this.programId.toBase58()} deployed and initialized on this RPC?`,
        ),
      );
    }
    return decodeConfig(account.data);
  }

  private clockOf(account: MaybeAccount): bigint {
    if (!account) throw new ChainUnavailableError(this.chain, new Error("the RPC returned no Clock sysvar"));
    return clockUnixTimestamp(account.data);
  }

  private launcherKey(launcher: string): PublicKey {
    const key = publicKeyOrNull(launcher);
    if (!key) throw new TypeError(`launcher must be a base58 Solana public key, got ${launcher}`);
    return key;
  }

  private accounts(addresses: PublicKey[]): Promise<(AccountInfo<Buffer> | null)[]> {
    return this.rpc(() => this.connection.getMultipleAccountsInfo(addresses));
  }

  /** Any failure to get an answer is the chain being unavailable; callers answer 503 and never guess. */
  private async rpc<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      throw new ChainUnavailableError(this.chain, error);
    }
  }
}
