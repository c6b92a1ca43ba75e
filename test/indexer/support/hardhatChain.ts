// A real Hardhat node (child process) with the registry deployed, and wallets that reserve (commit, then reveal)
// and renew through it: the local EVM chain the indexer tests and the indexer bench run against.
import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Hex, keccak256, toHex } from "viem";
import { mnemonicToAccount } from "viem/accounts";
import { evmCommitment } from "../../../chains/evm/commitment";
import { type EvmManifestEntry, writeManifestEntries } from "../../../config/manifest";
import { identityRegistryAbi } from "../../../contracts/abi/identityRegistry";
import { foldedHash, foldV1, normalizeIdentity } from "../../../core/fold";
import { connectEvm, type EvmClients } from "../../../scripts/evm/clients";
import {
  deployIdentityRegistry,
  type EvmDeployment,
  HARDHAT_DEV_PRIVATE_KEY,
  manifestEntry,
} from "../../../scripts/evm/deploy";
import { refreshLocalPrice } from "../../../scripts/evm/set-price";
import { startHardhatNode } from "../../../scripts/localnet/evm/hardhatNode";

/** Hardhat's public development mnemonic: its accounts are funded only on local nodes (index 0 deploys). */
const HARDHAT_MNEMONIC = "test test test test test test test test test test test junk";
const WALLET_COUNT = 19;
/** The partner reference every reservation of these helpers carries. */
const TEST_PARTNER_REF: Hex = keccak256(toHex("partner-test"));

/** A mined transaction of the registry. */
export interface Landed {
  blockNumber: bigint;
  hash: Hex;
}

/** A new reservation whose commitment is mined: its reveal, to send once the commitment matured. */
export interface Committed {
  /**
   * Sends the reveal (the paying `reserve`) and resolves once it is mined. Any block after the commit's will do:
   * each block is stamped at least a second after the last, the local registry's minimum commitment age.
   */
  reveal(): Promise<Landed>;
}

/**
 * The two registry calls of a new reservation of `name`/`ticker` for a day by `launcher`: `commit` of its
 * commitment, under a fresh secret, then the reveal `reserve`. For viem's writeContract or encodeFunctionData (the
 * bench's batches send calldata their own way).
 */
export function reservationCalls(launcher: Hex, name: string, ticker: string, partnerRef = TEST_PARTNER_REF) {
  const secret: Hex = `0x${randomBytes(32).toString("hex")}`;
  const identity = normalizeIdentity(name, ticker);
  const commitment = evmCommitment({ identity, launcher, durationSeconds: ONE_DAY, partnerRef, secret });
  return {
    commitment,
    commit: { abi: identityRegistryAbi, functionName: "commit", args: [commitment] } as const,
    reveal: {
      abi: identityRegistryAbi,
      functionName: "reserve",
      args: [name, ticker, ONE_DAY, partnerRef, secret],
    } as const,
  };
}

export interface HardhatChain {
  /** Its name in manifests. */
  chain: string;
  rpcUrl: string;
  /** The node's websocket (Hardhat serves it on the HTTP port). */
  wsUrl: string;
  deployment: EvmDeployment;
  /** Its manifest entry, without a websocket. */
  entry: EvmManifestEntry;
  /** A manifest of this chain without a websocket: Ponder polls. */
  manifestPath: string;
  /** Writes a manifest of this chain whose entry names `wsUrl` as its websocket; returns its path. */
  manifestWithWebsocket(wsUrl: string): string;
  wallets: EvmClients[];
  /**
   * A new reservation's first step: `wallet` commits to reserving the pair for a day. Resolves once the commit is
   * mined, with the reveal to send later (a test that needs the reservation in one block, as a reorg's, commits
   * first).
   */
  commit(wallet: EvmClients, name: string, ticker: string): Promise<Committed>;
  /** Reserves for a day from `wallet`: commits, then reveals; resolves with the reveal's block number and hash. */
  reserve(wallet: EvmClients, name: string, ticker: string): Promise<Landed>;
  renew(wallet: EvmClients, name: string, ticker: string): Promise<Landed>;
  /** Moves time forward and publishes a fresh price, so the feed is not stale afterwards. */
  increaseTime(seconds: number): Promise<void>;
  /** Publishes a fresh price (every automined block moves chain time at least a second ahead). */
  refreshPrice(): Promise<void>;
  rpc<T>(method: string, params?: unknown[]): Promise<T>;
  stop(): Promise<void>;
}

export const ONE_DAY = 86_400;

export interface HardhatChainOptions {
  /**
   * Chain id 1337 instead of Hardhat's 31337, to run beside a default chain (Ponder tells chains apart by id; 1337
   * is still a development id, indexer/evm/chains.ts LOCAL_CHAIN_IDS).
   */
  secondChainId?: boolean;
}

/** Writes a manifest of several chains (one Ponder indexing them all); returns its path. */
export function manifestOfChains(chains: readonly HardhatChain[]): string {
  const path = join(mkdtempSync(join(tmpdir(), "indexer-manifest-")), "chains.json");
  writeManifestEntries(path, { evm: chains.map((chain) => chain.entry) });
  return path;
}

export async function startHardhatChain(
  chainName = "hardhat",
  options: HardhatChainOptions = {},
): Promise<HardhatChain> {
  const node = await startHardhatNode({ port: 0, chainId: options.secondChainId ? 1337 : undefined });
  const { rpcUrl } = node;
  try {
    const deployment = await deployIdentityRegistry({ rpcUrl, deployerPrivateKey: HARDHAT_DEV_PRIVATE_KEY });
    const manifestDir = mkdtempSync(join(tmpdir(), "indexer-manifest-"));
    const manifestPath = join(manifestDir, "local.json");
    const entry = manifestEntry(chainName, { rpcUrl }, deployment);
    writeManifestEntries(manifestPath, { evm: [entry] });
    let websocketManifests = 0;
    const manifestWithWebsocket = (wsUrl: string) => {
      const path = join(manifestDir, `websocket-${++websocketManifests}.json`);
      writeManifestEntries(path, { evm: [manifestEntry(chainName, { rpcUrl, wsUrl }, deployment)] });
      return path;
    };
    const wallets = await Promise.all(
      Array.from({ length: WALLET_COUNT }, (_, index) => connectEvm(rpcUrl, walletKey(index + 1))),
    );
    const rpc = async <T>(method: string, params: unknown[] = []): Promise<T> =>
      (wallets[0] as EvmClients).publicClient.request({ method, params } as never) as Promise<T>;
    const send = async (wallet: EvmClients, hash: Hex): Promise<Landed> => {
      const receipt = await wallet.publicClient.waitForTransactionReceipt({ hash });
      if (receipt.status !== "success") throw new Error(`transaction ${hash} reverted`);
      return { blockNumber: receipt.blockNumber, hash };
    };
    const refreshPrice = async () => {
      await refreshLocalPrice({
        rpcUrl,
        ownerPrivateKey: HARDHAT_DEV_PRIVATE_KEY,
        priceFeed: deployment.priceFeed,
      });
    };
    const fee = (wallet: EvmClients) =>
      wallet.publicClient.readContract({
        address: deployment.registry,
        abi: identityRegistryAbi,
        functionName: "quote",
        args: [ONE_DAY],
      });
    const commit = async (wallet: EvmClients, name: string, ticker: string): Promise<Committed> => {
      const calls = reservationCalls(wallet.walletClient.account.address, name, ticker);
      await send(
        wallet,
        await wallet.walletClient.writeContract({ address: deployment.registry, ...calls.commit }),
      );
      return {
        reveal: async () =>
          send(
            wallet,
            await wallet.walletClient.writeContract({
              address: deployment.registry,
              ...calls.reveal,
              value: await fee(wallet),
            }),
          ),
      };
    };
    return {
      chain: chainName,
      rpcUrl,
      wsUrl: node.wsUrl,
      deployment,
      entry,
      manifestPath,
      manifestWithWebsocket,
      wallets,
      rpc,
      commit,
      async reserve(wallet, name, ticker) {
        return (await commit(wallet, name, ticker)).reveal();
      },
      async renew(wallet, name, ticker) {
        const hash = await wallet.walletClient.writeContract({
          address: deployment.registry,
          abi: identityRegistryAbi,
          functionName: "renew",
          args: [foldedHash(foldV1(name)), foldedHash(foldV1(ticker)), ONE_DAY, `0x${"0".repeat(64)}`],
          value: await fee(wallet),
        });
        return send(wallet, hash);
      },
      async increaseTime(seconds) {
        await rpc("evm_increaseTime", [seconds]);
        await rpc("evm_mine");
        await refreshPrice();
      },
      refreshPrice,
      stop: node.stop,
    };
  } catch (error) {
    await node.stop();
    throw error;
  }
}

function walletKey(addressIndex: number): Hex {
  const key = mnemonicToAccount(HARDHAT_MNEMONIC, { addressIndex }).getHdKey().privateKey;
  if (!key) throw new Error("the development mnemonic did not derive a key");
  return toHex(key);
}
