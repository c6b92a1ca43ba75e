// The project's local Solana RPC (litesvm behind JSON-RPC + websocket) with the identity_registry program
// deployed, and funded launchers that reserve (commit, then reveal a slot later) and renew through the stock Anchor
// client.
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
import { commitMethod, planReveal, revealMethod } from "../../programs/support/commitReveal";

export interface SolanaTestChain {
  rpc: SolanaRpc;
  entry: SolanaManifestEntry;
  program: RegistryProgram;
  /** The deployer's provider (upgrade authority and admin). */
  provider: AnchorProvider;
  newLauncher(): Keypair;
  /** A new reservation for a day: commits, waits for a later slot, reveals; resolves with the reveal's signature. */
  reserve(launcher: Keypair, name: string, ticker: string): Promise<string>;
  renew(launcher: Keypair, name: string, ticker: string): Promise<string>;
  /**
   * The registry's reserve (the reveal) / renew instruction, for a test to send its own way (e.g. through another
   * program). For reserve, the launcher's commitment is sent first (directly) and has matured when this resolves.
   */
  instruction(
    kind: "reserve" | "renew",
    launcher: Keypair,
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
/** The partner reference every reservation of these helpers carries. */
const PARTNER_REF = Array.from({ length: 32 }, (_, index) => index);

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
  const renewCall = (launcher: PublicKey, name: string, ticker: string) =>
    program.methods.renew(new BN(SOLANA_DAY)).accountsStrict(keys(launcher, name, ticker));
  /**
   * Commits `launcher` to the pair for a day (under a fresh secret) and waits until the chain has produced a block
   * after the commit's: the reveal is accepted from the next slot on (the local minimum age). Read from the
   * in-process ledger, not over RPC, so an RPC fault plan does not reach it. Resolves with the reveal's call.
   */
  const commitFor = async (launcher: Keypair, name: string, ticker: string) => {
    const plan = planReveal(programId, launcher.publicKey, new PublicKey(deployment.priceAccount), {
      name,
      ticker,
      durationSeconds: SOLANA_DAY,
      partnerRef: PARTNER_REF,
    });
    const commit = await commitMethod(program, plan).signers([launcher]).rpc();
    const committedSlot = rpc.chain.ledger.transaction(commit)?.slot ?? rpc.chain.ledger.head.slot;
    const deadline = Date.now() + 30_000;
    while (rpc.chain.ledger.head.slot <= committedSlot) {
      if (Date.now() > deadline) throw new Error(`the chain produced no block after slot ${committedSlot}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return revealMethod(program, plan).signers([launcher]);
  };
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
    reserve: async (launcher, name, ticker) => (await commitFor(launcher, name, ticker)).rpc(),
    renew: (launcher, name, ticker) => renewCall(launcher.publicKey, name, ticker).signers([launcher]).rpc(),
    instruction: async (kind, launcher, name, ticker) =>
      kind === "renew"
        ? renewCall(launcher.publicKey, name, ticker).instruction()
        : (await commitFor(launcher, name, ticker)).instruction(),
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
