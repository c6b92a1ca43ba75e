// The EVM IdentityRegistry through a viem public client: quotes from the registry's own `quote` (which
// reverts on a stale or invalid feed answer, exactly as `reserve` would), the pair's record and the wallet's
// active count from the registry, offline-built transactions, and receipts for outcomes.
import {
  type Address,
  BaseError,
  ContractFunctionRevertedError,
  createPublicClient,
  decodeFunctionData,
  getAddress,
  type Hash,
  http,
  type PublicClient,
  parseAbi,
  parseEventLogs,
  TransactionNotFoundError,
  TransactionReceiptNotFoundError,
  zeroAddress,
} from "viem";
import type { ExplorerTemplates } from "../../config/explorer";
import type { EvmManifestEntry } from "../../config/manifest";
import { identityRegistryAbi } from "../../contracts/abi/identityRegistry";
import { onChainKey } from "../../core/address/equality";
import type { NormalizedIdentity } from "../../core/fold";
import type { ReservationDuration } from "../../core/reservation";
import {
  ChainUnavailableError,
  type EvmMessageVerifier,
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
import { DEFAULT_RPC_TIMEOUT_MS } from "../rpcTimeout";
import { isTransactionHash, registrySteps } from "./transaction";

/** The two AggregatorV3Interface reads a quote needs (any Chainlink-style feed). */
const aggregatorAbi = parseAbi([
  "function latestRoundData() view returns (uint80 roundId, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)",
  "function decimals() view returns (uint8)",
]);

/** Registry errors that mean the feed cannot price a reservation now. */
const PRICE_ERRORS = new Set([
  "StalePrice",
  "InvalidPrice",
  "PriceOutOfBounds",
  "SequencerDown",
  "SequencerGracePeriodNotOver",
]);

const REGISTRY_STEPS: ReadonlySet<string> = new Set<RegistryStep>(["commit", "reserve", "renew"]);

export interface EvmRegistryClientOptions {
  timeoutMs?: number;
}

/** The registry's custom error of a failed read or simulation, when it reverted with one. */
function revertOf(error: unknown): { name: string; args: readonly unknown[] } | null {
  if (!(error instanceof BaseError)) return null;
  const reverted = error.walk((cause) => cause instanceof ContractFunctionRevertedError);
  if (!(reverted instanceof ContractFunctionRevertedError) || !reverted.data) return null;
  return { name: reverted.data.errorName, args: reverted.data.args ?? [] };
}

const describeRevert = (revert: { name: string; args: readonly unknown[] }) =>
  `${revert.name}(${revert.args.map(String).join(", ")})`;

const secondsToDate = (seconds: bigint) => new Date(Number(seconds) * 1000);

const NO_PARTNER_REF = `0x${"0".repeat(64)}`;

/** An event's partnerRef as the mirror keeps it: lowercase, null when all zero. */
function partnerRefOrNull(ref: `0x${string}`): `0x${string}` | null {
  const lower = ref.toLowerCase() as `0x${string}`;
  return lower === NO_PARTNER_REF ? null : lower;
}

export class EvmRegistryClient implements RegistryClient {
  readonly family = "evm" as const;
  readonly simulated = false;
  readonly chain: string;
  private readonly client: PublicClient;
  private readonly registry: { address: Address; abi: typeof identityRegistryAbi };
  readonly messageVerifier: EvmMessageVerifier;
  readonly guardTarget: GuardTarget;
  readonly explorer: ExplorerTemplates | null;
  /** The registry's minCommitmentAge, an immutable: read once. */
  private minCommitmentAge: Promise<number> | undefined;

  constructor(
    private readonly entry: EvmManifestEntry,
    options: EvmRegistryClientOptions = {},
  ) {
    this.chain = entry.chain;
    this.registry = { address: getAddress(entry.registry), abi: identityRegistryAbi };
    this.guardTarget = { family: "evm", chainId: entry.chainId, registry: this.registry.address };
    this.explorer = entry.explorer ?? null;
    this.client = createPublicClient({
      // Concurrent reads share one HTTP request (JSON-RPC batch).
      transport: http(entry.rpcUrl, {
        batch: true,
        timeout: options.timeoutMs ?? DEFAULT_RPC_TIMEOUT_MS,
        retryCount: 1,
      }),
    });
    this.messageVerifier = {
      chainId: entry.chainId,
      verifyMessage: (address, message, signature) =>
        this.rpc(async () => {
          const [code, valid] = await Promise.all([
            this.client.getCode({ address }),
            this.client.verifyMessage({ address, message, signature }),
          ]);
          return { valid, contract: code !== undefined && code !== "0x" };
        }),
    };
  }

  async quote(durationSeconds: ReservationDuration): Promise<RegistryQuote> {
    // One batch in the usual case: the manifest's feed is read beside the registry, and read again only when
    // the registry has since been pointed at another feed.
    const manifestFeed = getAddress(this.entry.priceFeed);
    const [amount, usdMicros, feed, maxPriceAge, manifestFeedAnswer] = await this.rpc(() =>
      Promise.all([
        this.client.readContract({ ...this.registry, functionName: "quote", args: [durationSeconds] }),
        this.client.readContract({
          ...this.registry,
          functionName: "tierPriceUsdMicros",
          args: [durationSeconds],
        }),
        this.client.readContract({ ...this.registry, functionName: "priceFeed" }),
        this.client.readContract({ ...this.registry, functionName: "maxPriceAge" }),
        this.feedAnswer(manifestFeed).catch(() => null), // a wrong manifest feed must not fail the quote
      ]),
    );
    const { answer, updatedAt, decimals } =
      manifestFeedAnswer !== null && getAddress(feed) === manifestFeed
        ? manifestFeedAnswer
        : await this.rpc(() => this.feedAnswer(feed));
    return {
      chain: this.chain,
      durationSeconds,
      usdMicros,
      amount,
      unit: "wei",
      priceUsd: Number(answer) / 10 ** decimals,
      priceUpdatedAt: secondsToDate(updatedAt),
      expiresAt: secondsToDate(updatedAt + BigInt(maxPriceAge)),
      simulated: false,
    };
  }

  reservationLocation(): string {
    return this.registry.address;
  }

  async reservationOf(identity: NormalizedIdentity): Promise<OnChainReservation | null> {
    const [launcher, expiresAt, active] = await this.rpc(() =>
      this.client.readContract({
        ...this.registry,
        functionName: "reservationOf",
        args: [identity.nameHash, identity.tickerHash],
      }),
    );
    if (launcher === zeroAddress) return null;
    return { launcher, expiresAt: secondsToDate(expiresAt), active };
  }

  async activeReservationCount(launcher: string): Promise<number> {
    const count = await this.rpc(() =>
      this.client.readContract({
        ...this.registry,
        functionName: "activeReservationCount",
        args: [getAddress(launcher)],
      }),
    );
    return Number(count);
  }

  async prepareTransaction(request: ReserveRequest): Promise<PreparedSteps> {
    return registrySteps(this.entry, request, await this.minCommitmentAgeSeconds());
  }

  async commitmentOf(launcher: string, commitment: `0x${string}`): Promise<OnChainCommitment | null> {
    const [committedAt, minAge] = await Promise.all([
      this.rpc(() =>
        this.client.readContract({
          ...this.registry,
          functionName: "commitmentOf",
          args: [getAddress(launcher), commitment],
        }),
      ),
      this.minCommitmentAgeSeconds(),
    ]);
    if (committedAt === 0n) return null;
    return {
      committedAt: secondsToDate(committedAt),
      revealableAt: secondsToDate(committedAt + BigInt(minAge)),
      revealableSlot: null,
    };
  }

  async stepOf(transactionHash: string): Promise<RegistryStep | null> {
    if (!isTransactionHash(transactionHash)) return null;
    const transaction = await this.rpc(() =>
      this.client.getTransaction({ hash: transactionHash as Hash }).catch((error: unknown) => {
        if (error instanceof TransactionNotFoundError) return null;
        throw error;
      }),
    );
    if (transaction?.to == null || getAddress(transaction.to) !== this.registry.address) return null;
    try {
      const { functionName } = decodeFunctionData({ abi: identityRegistryAbi, data: transaction.input });
      return REGISTRY_STEPS.has(functionName) ? (functionName as RegistryStep) : null;
    } catch {
      return null;
    }
  }

  private minCommitmentAgeSeconds(): Promise<number> {
    this.minCommitmentAge ??= this.rpc(() =>
      this.client.readContract({ ...this.registry, functionName: "minCommitmentAge" }),
    ).then(Number, (error: unknown) => {
      this.minCommitmentAge = undefined; // not cached: the next prepare asks again
      throw error;
    });
    return this.minCommitmentAge;
  }

  /** Mined is final here: a receipt's status decides; a known transaction without one is pending. */
  async transactionOutcome(transactionHash: string): Promise<TransactionOutcome> {
    const receipt = await this.receiptOf(transactionHash);
    const hash = transactionHash as Hash;
    if (receipt === null) {
      const known = await this.rpc(() =>
        this.client.getTransaction({ hash }).then(
          () => true,
          (error: unknown) => {
            if (error instanceof TransactionNotFoundError) return false;
            throw error;
          },
        ),
      );
      return known ? { state: "pending" } : { state: "not_found" };
    }
    const blockNumber = Number(receipt.blockNumber);
    if (receipt.status === "success") return { state: "succeeded", blockNumber };
    return { state: "failed", blockNumber, error: await this.revertReason(hash, receipt.blockNumber) };
  }

  /** The registry's `Reserved` or `Renewed` event in a succeeded transaction's receipt. */
  async settlementOf(transactionHash: string): Promise<RegistrySettlement | null> {
    const receipt = await this.receiptOf(transactionHash);
    if (receipt === null || receipt.status !== "success") return null;
    const [event] = parseEventLogs({
      abi: identityRegistryAbi,
      eventName: ["Reserved", "Renewed"],
      logs: receipt.logs.filter((log) => getAddress(log.address) === this.registry.address),
    });
    if (event === undefined) return null;
    return {
      kind: event.eventName === "Reserved" ? "reserve" : "renew",
      nameHash: event.args.nameHash.toLowerCase() as `0x${string}`,
      tickerHash: event.args.tickerHash.toLowerCase() as `0x${string}`,
      launcher: onChainKey("evm", event.args.launcher),
      expiresAt: secondsToDate(event.args.expiresAt),
      feePaid: event.args.feeWei,
      durationSeconds: Number(event.args.durationSeconds),
      partnerRef: partnerRefOrNull(event.args.partnerRef),
    };
  }

  isTransactionHash(value: string): boolean {
    return isTransactionHash(value);
  }

  /** Final once the chain's `finalized` block has reached the transaction's block (a chain without one: never). */
  async isFinal(_transactionHash: string, blockNumber: number): Promise<boolean> {
    const finalized = await this.rpc(() => this.client.getBlock({ blockTag: "finalized" }));
    return finalized.number !== null && Number(finalized.number) >= blockNumber;
  }

  /** The receipt, or null while no node has mined the transaction. */
  private receiptOf(transactionHash: string) {
    if (!isTransactionHash(transactionHash))
      throw new TypeError(`not a transaction hash: ${transactionHash}`);
    return this.rpc(() =>
      this.client.getTransactionReceipt({ hash: transactionHash as Hash }).catch((error: unknown) => {
        if (error instanceof TransactionReceiptNotFoundError) return null;
        throw error;
      }),
    );
  }

  private async feedAnswer(feed: Address): Promise<{ answer: bigint; updatedAt: bigint; decimals: number }> {
    const [[, answer, , updatedAt], decimals] = await Promise.all([
      this.client.readContract({ address: feed, abi: aggregatorAbi, functionName: "latestRoundData" }),
      this.client.readContract({ address: feed, abi: aggregatorAbi, functionName: "decimals" }),
    ]);
    return { answer, updatedAt, decimals };
  }

  /**
   * Receipts carry no revert reason: replay the registry call on the state after its block (earlier
   * transactions of the block included) to name the error. Best effort; the status alone decides the outcome.
   */
  private async revertReason(hash: Hash, blockNumber: bigint): Promise<string> {
    const unexplained = "reverted on-chain (the revert reason could not be replayed)";
    const transaction = await this.rpc(() => this.client.getTransaction({ hash }));
    if (transaction.to === null || getAddress(transaction.to) !== this.registry.address) {
      return "reverted on-chain (not a call to this chain's registry)";
    }
    let call: ReturnType<typeof decodeFunctionData<typeof identityRegistryAbi>>;
    try {
      call = decodeFunctionData({ abi: identityRegistryAbi, data: transaction.input });
    } catch {
      return unexplained;
    }
    try {
      await this.client.simulateContract({
        ...this.registry,
        functionName: call.functionName,
        args: call.args,
        account: transaction.from,
        value: transaction.value,
        blockNumber,
      } as unknown as Parameters<PublicClient["simulateContract"]>[0]); // name and args decoded at run time
      return unexplained;
    } catch (error) {
      const revert = revertOf(error);
      return revert ? `reverted on-chain with ${describeRevert(revert)}` : unexplained;
    }
  }

  /**
   * Registry reads: a stale or invalid price is PriceUnavailableError; any failure to get an answer is
   * ChainUnavailableError (callers answer 503 and never guess). Other reverts are bugs and stay as they are.
   */
  private async rpc<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      const revert = revertOf(error);
      if (revert && PRICE_ERRORS.has(revert.name)) {
        throw new PriceUnavailableError(this.chain, priceDetail(revert));
      }
      if (revert) throw error;
      throw new ChainUnavailableError(this.chain, error);
    }
  }
}

function priceDetail(revert: { name: string; args: readonly unknown[] }): string {
  if (revert.name === "StalePrice") {
    const [updatedAt, maxPriceAge] = revert.args as [bigint, number];
    return `the feed's answer was published at ${secondsToDate(updatedAt).toISOString()} and the registry accepts answers at most ${maxPriceAge} s old; it refuses reservations until the feed updates`;
  }
  if (revert.name === "SequencerDown") {
    return "the chain's sequencer is down, so its prices cannot be trusted; the registry refuses reservations until it is back and its grace period has passed";
  }
  if (revert.name === "SequencerGracePeriodNotOver") {
    const [endsAt] = revert.args as [bigint];
    return `the chain's sequencer came back recently; the registry accepts prices again from ${secondsToDate(endsAt).toISOString()}`;
  }
  return `the feed answered ${describeRevert(revert)}, which the registry refuses`;
}
