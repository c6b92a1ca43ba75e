// The EVM IdentityRegistry's decision signers: the windows it holds, read over the service's RPC settings, and
// the owner's setDecisionSigner / revokeDecisionSigner sent with a viem wallet client and waited for until mined.
import {
  type Address,
  BaseError,
  type Chain,
  createPublicClient,
  createWalletClient,
  defineChain,
  getAddress,
  type Hash,
  type Hex,
  http,
  type PublicClient,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import type { EvmManifestEntry } from "../../config/manifest";
import { identityRegistryAbi } from "../../contracts/abi/identityRegistry";
import { ServiceError } from "../../core/errors/serviceError";
import { DEFAULT_RPC_TIMEOUT_MS } from "../rpcTimeout";

/** Blocks per eth_getLogs request: 10,000 is the smallest range cap common among public RPC providers. */
const LOG_BLOCK_RANGE = 10_000n;
/** How long a sent transaction may wait to be mined (viem's default); past it the operator checks and syncs again. */
const RECEIPT_TIMEOUT_MS = 180_000;

export class EvmDecisionSignerError extends ServiceError {
  constructor(message: string) {
    super(message);
  }
}

export interface EvmSignerWindow {
  signer: Address;
  validFrom: bigint;
  validUntil: bigint;
}

export interface EvmSignerChangeResult {
  transaction: Hash;
  /** The window the registry holds after the change. */
  window: EvmSignerWindow;
}

/** The owner's writes; every call waits until its transaction is mined and succeeded. */
export interface EvmSignerOwner {
  set(signer: string, validFrom: bigint, validUntil: bigint): Promise<EvmSignerChangeResult>;
  revoke(signer: string): Promise<EvmSignerChangeResult>;
}

/** viem's short message and details: its full message also names the RPC URL, which may hold an API key. */
function reasonOf(error: unknown): string {
  if (!(error instanceof BaseError)) return (error as Error).message;
  const short = error.shortMessage.replace(/\.$/, "");
  return error.details ? `${short} (${error.details})` : short;
}

export class EvmDecisionSigners {
  readonly registry: Address;
  private readonly chain: Chain;
  private readonly client: PublicClient;
  private readonly transport: ReturnType<typeof http>;

  /** `registry` is the entry's production registry or its sandbox one. */
  constructor(
    private readonly entry: EvmManifestEntry,
    registry: string,
    options: { timeoutMs?: number } = {},
  ) {
    this.registry = getAddress(registry);
    this.transport = http(entry.rpcUrl, {
      batch: true,
      timeout: options.timeoutMs ?? DEFAULT_RPC_TIMEOUT_MS,
      retryCount: 1,
    });
    // The wallet client then refuses to send unless the node's chain id is the manifest's.
    this.chain = defineChain({
      id: entry.chainId,
      name: entry.chain,
      nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
      rpcUrls: { default: { http: [entry.rpcUrl] } },
    });
    this.client = createPublicClient({ chain: this.chain, transport: this.transport });
  }

  /**
   * The chain's clock and the window of every signer the registry has an entry for among `known` and those it
   * was ever told to trust (its DecisionSignerSet events): its mapping cannot be listed, and a retired key is
   * no longer in the key ring.
   */
  async read(known: readonly string[]): Promise<{ now: bigint; signers: EvmSignerWindow[] }> {
    try {
      const [latest, everSet] = await Promise.all([this.client.getBlock(), this.everSetSigners()]);
      const signers = [...new Set([...known.map((signer) => getAddress(signer)), ...everSet])];
      const windows = await Promise.all(signers.map((signer) => this.windowOf(signer)));
      return { now: latest.timestamp, signers: windows.filter((window) => window.validUntil !== 0n) };
    } catch (error) {
      throw new EvmDecisionSignerError(
        `Reading the decision signers of ${this.registry} on ${this.entry.chain} failed: ${reasonOf(error)}. Check the manifest's rpcUrl and registry.`,
      );
    }
  }

  /** Checks `privateKey` owns the registry; `keySource` names where it came from, for the operator. */
  async asOwner(privateKey: Hex, keySource: string): Promise<EvmSignerOwner> {
    const account = privateKeyToAccount(privateKey);
    const owner = await this.client.readContract({
      address: this.registry,
      abi: identityRegistryAbi,
      functionName: "owner",
    });
    if (getAddress(owner) !== account.address) {
      throw new EvmDecisionSignerError(
        `The registry ${this.registry} on ${this.entry.chain} is owned by ${owner}, not by ${account.address} (${keySource}); use the owner's key.`,
      );
    }
    const wallet = createWalletClient({ account, chain: this.chain, transport: this.transport });
    const call = { address: this.registry, abi: identityRegistryAbi, chain: this.chain, account } as const;
    // writeContract estimates gas first, so a call the registry would revert is refused, its error decoded.
    const send = async (signer: Address, write: () => Promise<Hash>, what: string) => {
      let hash: Hash;
      try {
        hash = await write();
      } catch (error) {
        throw new EvmDecisionSignerError(
          `${what}(${signer}) on ${this.entry.chain} was refused: ${reasonOf(error)}`,
        );
      }
      const receipt = await this.client
        .waitForTransactionReceipt({ hash, timeout: RECEIPT_TIMEOUT_MS })
        .catch((error: unknown) => {
          throw new EvmDecisionSignerError(
            `Transaction ${hash} on ${this.entry.chain} was not seen mined: ${reasonOf(error)}. Check it on the chain.`,
          );
        });
      if (receipt.status !== "success") {
        throw new EvmDecisionSignerError(`Transaction ${hash} on ${this.entry.chain} reverted.`);
      }
      return { transaction: hash, window: await this.windowOf(signer) };
    };
    return {
      set(signer, validFrom, validUntil) {
        const address = getAddress(signer);
        const args = [address, validFrom, validUntil] as const;
        return send(
          address,
          () => wallet.writeContract({ ...call, functionName: "setDecisionSigner", args }),
          "setDecisionSigner",
        );
      },
      revoke(signer) {
        const address = getAddress(signer);
        const args = [address] as const;
        return send(
          address,
          () => wallet.writeContract({ ...call, functionName: "revokeDecisionSigner", args }),
          "revokeDecisionSigner",
        );
      },
    };
  }

  private async windowOf(signer: Address): Promise<EvmSignerWindow> {
    const [validFrom, validUntil] = await this.client.readContract({
      address: this.registry,
      abi: identityRegistryAbi,
      functionName: "decisionSignerWindow",
      args: [signer],
    });
    return { signer, validFrom, validUntil };
  }

  /**
   * Signers of the registry's DecisionSignerSet events, from the deployment block on. The sandbox registry is
   * deployed after the production one (`npm run deploy:evm`), so the entry's deployBlock bounds both.
   */
  private async everSetSigners(): Promise<Address[]> {
    const head = await this.client.getBlockNumber();
    const signers = new Set<Address>();
    for (let from = BigInt(this.entry.deployBlock); from <= head; from += LOG_BLOCK_RANGE) {
      const to = from + LOG_BLOCK_RANGE - 1n < head ? from + LOG_BLOCK_RANGE - 1n : head;
      const events = await this.client.getContractEvents({
        address: this.registry,
        abi: identityRegistryAbi,
        eventName: "DecisionSignerSet",
        fromBlock: from,
        toBlock: to,
      });
      for (const event of events) if (event.args.signer) signers.add(getAddress(event.args.signer));
    }
    return [...signers];
  }
}
