// The project's local Solana RPC (litesvm behind JSON-RPC + websocket) with the identity_registry program
// deployed, and funded launchers that reserve and renew through the stock Anchor client.
import { AnchorProvider, BN, Wallet } from "@coral-xyz/anchor";
import {
  Connection,
  Keypair,
  LAMPORTS_PER_SOL,
  PublicKey,
  Transaction,
  type TransactionInstruction,
} from "@solana/web3.js";
import type { SolanaManifestEntry } from "../../../config/manifest";
import { foldedHash, foldV1 } from "../../../core/fold";
import { devWallet } from "../../../scripts/localnet";
import type { FaultPlan } from "../../../scripts/localnet/solana/faults";
import { type SolanaRpc, startSolanaRpc } from "../../../scripts/localnet/solana/server";
import { deployIdentityRegistry, refreshLocalPrice } from "../../../scripts/solana/deploy";
import {
  configAddress,
  type RegistryProgram,
  registryProgram,
  reservationAddress,
  treasuryAddress,
  walletAddress,
} from "../../../scripts/solana/registry";

export interface SolanaTestChain {
  rpc: SolanaRpc;
  entry: SolanaManifestEntry;
  program: RegistryProgram;
  /** The deployer's provider (upgrade authority and admin). */
  provider: AnchorProvider;
  newLauncher(): Keypair;
  reserve(launcher: Keypair, name: string, ticker: string): Promise<string>;
  renew(launcher: Keypair, name: string, ticker: string): Promise<string>;
  /** The registry's reserve / renew instruction, for a test to send its own way (e.g. through another program). */
  instruction(
    kind: "reserve" | "renew",
    launcher: PublicKey,
    name: string,
    ticker: string,
  ): Promise<TransactionInstruction>;
  /** Sends `instructions` in one legacy transaction paid and signed by `signer`; resolves once confirmed. */
  send(signer: Keypair, instructions: TransactionInstruction[]): Promise<string>;
  setFaults(plan: FaultPlan): void;
  refreshPrice(): Promise<void>;
  stop(): Promise<void>;
}

export const SOLANA_DAY = 86_400;

/**
 * Setup (deploy, initialize, price) runs through web3.js, whose HTTP keep-alive sometimes meets a socket
 * the local RPC server has just closed (ECONNRESET, seen on a loaded machine). The deploy is not
 * resumable, so a failed setup is retried from a fresh RPC server.
 */
export async function startSolanaTestChain(chain = "solana", attempts = 3): Promise<SolanaTestChain> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(chain);
    } catch (error) {
      if (attempt >= attempts || !String((error as Error).message).includes("fetch failed")) throw error;
    }
  }
}

async function startOnce(chain: string): Promise<SolanaTestChain> {
  const rpc = await startSolanaRpc({ port: 0, slotMs: 50 });
  const deployer = devWallet("deployer").solana;
  rpc.chain.airdrop(deployer.publicKey.toBase58(), 1_000n * BigInt(LAMPORTS_PER_SOL));
  const connection = new Connection(rpc.rpcUrl, { commitment: "confirmed", wsEndpoint: rpc.wsUrl });
  const provider = new AnchorProvider(connection, new Wallet(deployer), { commitment: "confirmed" });
  const deployment = await deployIdentityRegistry(provider).catch(async (error: Error) => {
    await rpc.stop();
    throw error;
  });
  const programId = new PublicKey(deployment.programId);
  const program = registryProgram(provider, programId);
  const keys = (launcher: PublicKey, name: string, ticker: string) => ({
    launcher,
    config: configAddress(programId),
    priceUpdate: new PublicKey(deployment.priceAccount),
    reservation: reservationAddress(programId, foldedHash(foldV1(name)), foldedHash(foldV1(ticker))),
    wallet: walletAddress(programId, launcher),
    treasury: treasuryAddress(programId),
    systemProgram: PublicKey.default,
  });
  const calls = (launcher: PublicKey, name: string, ticker: string) => ({
    reserve: program.methods
      .reserve(
        name,
        ticker,
        new BN(SOLANA_DAY),
        Array.from({ length: 32 }, (_, index) => index),
      )
      .accountsStrict(keys(launcher, name, ticker)),
    renew: program.methods.renew(new BN(SOLANA_DAY)).accountsStrict(keys(launcher, name, ticker)),
  });
  return {
    rpc,
    program,
    provider,
    entry: {
      chain,
      rpcUrl: rpc.rpcUrl,
      wsUrl: rpc.wsUrl,
      programId: deployment.programId,
      priceAccount: deployment.priceAccount,
      configAccount: deployment.configAccount,
      deploySlot: deployment.deploySlot,
    },
    newLauncher() {
      const launcher = Keypair.generate();
      rpc.chain.airdrop(launcher.publicKey.toBase58(), 100n * BigInt(LAMPORTS_PER_SOL));
      return launcher;
    },
    reserve: (launcher, name, ticker) =>
      calls(launcher.publicKey, name, ticker).reserve.signers([launcher]).rpc(),
    renew: (launcher, name, ticker) =>
      calls(launcher.publicKey, name, ticker).renew.signers([launcher]).rpc(),
    instruction: (kind, launcher, name, ticker) => calls(launcher, name, ticker)[kind].instruction(),
    send: (signer, instructions) =>
      new AnchorProvider(connection, new Wallet(signer), { commitment: "confirmed" }).sendAndConfirm(
        new Transaction().add(...instructions),
      ),
    setFaults: (plan) => rpc.chain.setFaults(plan),
    async refreshPrice() {
      await refreshLocalPrice(provider, deployment.programId);
    },
    async stop() {
      // web3.js closes its idle websocket 500 ms after the last subscription; let it, then stop.
      await new Promise((resolve) => setTimeout(resolve, 600));
      await rpc.stop();
    },
  };
}
