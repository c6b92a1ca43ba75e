// Local chains for development, tests and the embedded `npm start`: a Hardhat node and the
// litesvm-backed Solana RPC, both registries deployed through their real RPC paths (each twice: the
// production deployment and the sandbox's own), dev wallets funded, prices kept fresh, one deployment
// manifest written.
import { AnchorProvider, Wallet } from "@coral-xyz/anchor";
import { Connection, Keypair } from "@solana/web3.js";
import { bytesToHex } from "viem";
import { DEFAULT_MANIFEST_PATH, type DeploymentManifest, writeManifestEntries } from "../../config/manifest";
import { compileContracts } from "../evm/artifacts";
import { deployRegistryWithSandbox, manifestEntry } from "../evm/deploy";
import { refreshLocalPrice as refreshEvmPrice } from "../evm/set-price";
import {
  type DeployProgramOptions,
  deployIdentityRegistry as deploySolanaRegistry,
  maxDataLenOf,
  ProgramAlreadyDeployedError,
  refreshLocalPrice as refreshSolanaPrice,
} from "../solana/deploy";
import { type DevWallet, devWallet, devWallets, SOLANA_DEV_WALLET_LAMPORTS } from "./devWallets";
import { type HardhatNode, startHardhatNode } from "./evm/hardhatNode";
import { type SolanaRpc, startSolanaRpc } from "./solana/server";

export { DEFAULT_MANIFEST_PATH, type DeploymentManifest } from "../../config/manifest";
export { PortInUseError } from "../../net/ports";
export { devWallet, devWallets } from "./devWallets";
export { ChainStartError } from "./errors";

export interface LocalnetOptions {
  host?: string;
  /** Hardhat node port (default 8545; 0 picks a free one). */
  evmPort?: number;
  /** Solana JSON-RPC port (default 8899; 0 picks a free one). */
  solanaPort?: number;
  /** Solana websocket port (default RPC port + 1). */
  solanaWsPort?: number;
  /** Solana slot time in ms (default 400, as on a cluster). */
  slotMs?: number;
  /** Where to write the manifest; `null` writes none. Default data/deployments/local.json. */
  manifestPath?: string | null;
  /** How often local prices are republished (the Solana registry refuses prices older than 60 s). */
  priceRefreshMs?: number;
  /**
   * Block time of the Hardhat node: an empty block every this many ms besides the one each transaction mines,
   * as a live chain has. Set, the manifest names the node's websocket: the EVM indexer then learns of blocks
   * from new heads, and needs a head after it subscribes to read what was mined before. Unset (tests), the
   * node mines only on demand and the manifest has no websocket: the indexer polls.
   */
  evmBlockMs?: number;
  /** Progress lines; silent by default. */
  log?: (line: string) => void;
}

export interface Localnet {
  manifest: DeploymentManifest;
  solana: SolanaRpc;
  evm: HardhatNode;
  wallets: DevWallet[];
  /** Publishes fresh local prices on both chains now (e.g. after moving chain time), and resumes republishing. */
  refreshPrices(): Promise<void>;
  /**
   * Stops republishing prices until the next `refreshPrices`, once any publication under way has landed, so a
   * test can move chain time and find the prices stale.
   */
  holdPrices(): Promise<void>;
  stop(): Promise<void>;
}

const EVM_CHAIN_NAME = "hardhat";
/**
 * The local EVM block time of `npm start` and `npm run localnet`: often enough that the indexer's first head after
 * it subscribes comes soon; Ponder works on every block, and at 1 s the copycat window's tail grew on a loaded
 * 2-core machine (docs/decisions.md, "The copycat window").
 */
export const LOCAL_EVM_BLOCK_MS = 5_000;
const SOLANA_CHAIN_NAME = "solana";
const DEFAULT_PRICE_REFRESH_MS = 20_000;
const EVM_REFRESH_EVERY_TICKS = 30;
/** web3.js closes an idle websocket 500 ms after its last subscription; closing it that way avoids its reconnect loop. */
const WEBSOCKET_IDLE_MS = 600;

async function mineEmptyBlock(rpcUrl: string): Promise<void> {
  const response = await fetch(rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "evm_mine", params: [] }),
  });
  if (!response.ok) throw new Error(`evm_mine answered HTTP ${response.status}`);
}

function evmPrivateKey(wallet: DevWallet) {
  const key = wallet.evm.getHdKey().privateKey;
  if (!key) throw new Error(`dev wallet ${wallet.name} has no EVM private key`);
  return bytesToHex(key);
}

async function startChains(options: LocalnetOptions): Promise<{ solana: SolanaRpc; evm: HardhatNode }> {
  const host = options.host ?? "127.0.0.1";
  const [solana, evm] = await Promise.allSettled([
    startSolanaRpc({
      host,
      port: options.solanaPort ?? 8899,
      wsPort: options.solanaWsPort,
      slotMs: options.slotMs,
    }),
    startHardhatNode({ host, port: options.evmPort ?? 8545 }),
  ]);
  if (solana.status === "fulfilled" && evm.status === "fulfilled")
    return { solana: solana.value, evm: evm.value };
  if (solana.status === "fulfilled") await solana.value.stop();
  if (evm.status === "fulfilled") await evm.value.stop();
  throw solana.status === "rejected" ? solana.reason : (evm as PromiseRejectedResult).reason;
}

export async function startLocalnet(options: LocalnetOptions = {}): Promise<Localnet> {
  const log = options.log ?? (() => {});
  log("Starting the Hardhat node and the Solana RPC, compiling the contracts...");
  // Compiling takes seconds and needs no chain: overlap it with the start-up.
  const compiled = compileContracts().then(
    () => undefined,
    (error: unknown) => error,
  );
  const { solana, evm } = await startChains(options);
  const deployer = devWallet("deployer");
  const connection = new Connection(solana.rpcUrl, { commitment: "confirmed", wsEndpoint: solana.wsUrl });
  const provider = new AnchorProvider(connection, new Wallet(deployer.solana), { commitment: "confirmed" });
  let keeper: NodeJS.Timeout | undefined;
  let blockMaker: NodeJS.Timeout | undefined;
  let refreshing: Promise<void> = Promise.resolve();
  let pricesHeld = false;

  let stopped: Promise<void> | undefined;
  void evm.exited.then((code) => {
    clearInterval(blockMaker);
    if (!stopped)
      log(
        `The Hardhat node stopped unexpectedly (exit code ${code}): the EVM chain is down; restart the local chains.`,
      );
  });
  const stop = () => {
    stopped ??= (async () => {
      clearInterval(keeper);
      clearInterval(blockMaker);
      await refreshing;
      await new Promise((done) => setTimeout(done, WEBSOCKET_IDLE_MS));
      await Promise.all([solana.stop(), evm.stop()]);
    })();
    return stopped;
  };

  try {
    const wallets = devWallets();
    for (const wallet of wallets)
      solana.chain.airdrop(wallet.solana.publicKey.toBase58(), SOLANA_DEV_WALLET_LAMPORTS);

    const compileError = await compiled;
    if (compileError !== undefined) throw compileError;
    log(
      "Deploying the Solana program and the EVM registry with its price feed, each twice (production, sandbox)...",
    );
    // The sandbox program gets a fresh program id on every start: nothing outside this chain refers to it.
    // Loaded as a validator loads programs at genesis: the loader's ~50 write transactions a program cost ~1.5 s of
    // CPU each (docs/localnet.md). Initializing still goes through transactions.
    const placeProgram = async (deploy: DeployProgramOptions) => {
      const programId = deploy.program.publicKey.toBase58();
      if (solana.chain.account(programId) !== null) throw new ProgramAlreadyDeployedError(programId);
      const authority = deployer.solana.publicKey.toBase58();
      const loaded = solana.chain.loadUpgradeableProgram(
        programId,
        authority,
        deploy.bytes,
        maxDataLenOf(deploy),
      );
      return { programId, ...loaded };
    };
    const [solanaDeployment, solanaSandbox, evmDeployments] = await Promise.all([
      deploySolanaRegistry(provider, { placeProgram }),
      deploySolanaRegistry(provider, { program: Keypair.generate(), placeProgram }),
      deployRegistryWithSandbox({
        rpcUrl: evm.rpcUrl,
        deployerPrivateKey: evmPrivateKey(deployer),
        compile: false,
      }),
    ]);
    const evmDeployment = evmDeployments.production;

    const manifest: DeploymentManifest = {
      evm: [
        manifestEntry(
          EVM_CHAIN_NAME,
          { rpcUrl: evm.rpcUrl, wsUrl: options.evmBlockMs === undefined ? undefined : evm.wsUrl },
          evmDeployment,
          evmDeployments.sandbox,
        ),
      ],
      solana: [
        {
          chain: SOLANA_CHAIN_NAME,
          rpcUrl: solana.rpcUrl,
          wsUrl: solana.wsUrl,
          ...solanaDeployment,
          sandbox: {
            programId: solanaSandbox.programId,
            configAccount: solanaSandbox.configAccount,
            priceAccount: solanaSandbox.priceAccount,
          },
        },
      ],
    };
    const manifestPath = options.manifestPath === undefined ? DEFAULT_MANIFEST_PATH : options.manifestPath;
    if (manifestPath !== null) writeManifestEntries(manifestPath, manifest);

    const refreshSolana = async () => {
      await refreshSolanaPrice(provider, solanaDeployment.programId);
      await refreshSolanaPrice(provider, solanaSandbox.programId);
    };
    const refreshEvm = () =>
      refreshEvmPrice({
        rpcUrl: evm.rpcUrl,
        ownerPrivateKey: evmPrivateKey(deployer),
        priceFeed: evmDeployment.priceFeed,
      }).then(() => {});
    // One refresh at a time; a failed one never blocks the next.
    const enqueue = (refresh: () => Promise<void>) => {
      const next = refreshing.then(refresh);
      refreshing = next.catch((error: Error) =>
        log(`Price refresh failed (reservations may see a stale price): ${error.message}`),
      );
      return next;
    };
    if (options.evmBlockMs !== undefined) {
      blockMaker = setInterval(() => {
        mineEmptyBlock(evm.rpcUrl).catch((error: Error) =>
          log(`Mining an empty EVM block failed: ${error.message}`),
        );
      }, options.evmBlockMs);
    }
    let ticks = 0;
    keeper = setInterval(() => {
      if (pricesHeld) return;
      // The EVM feed tolerates 4,500 s; refreshing it less often keeps EVM blocks for real activity.
      const evmDue = ++ticks % EVM_REFRESH_EVERY_TICKS === 0;
      void enqueue(async () => {
        if (pricesHeld) return;
        await refreshSolana();
        if (evmDue) await refreshEvm();
      }).catch(() => {});
    }, options.priceRefreshMs ?? DEFAULT_PRICE_REFRESH_MS);

    return {
      manifest,
      solana,
      evm,
      wallets,
      refreshPrices: () => {
        pricesHeld = false;
        return enqueue(async () => {
          await refreshSolana();
          await refreshEvm();
        });
      },
      holdPrices: async () => {
        pricesHeld = true;
        await refreshing;
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
