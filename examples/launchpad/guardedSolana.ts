// Solana: a guarded launch on the local Solana chain through the SDK's on-chain guard helpers. The reference launch
// program is deployed and initialized for the sandbox registry program and this cluster by the SDK's testing entry
// (a launchpad deploys its own program once; the example does it on every run, so its sandbox claim is always its
// own), with wallets funded by airdrop and transactions confirmed by polling; a fresh pair launches
// (validate with `onchain` naming the program and a fresh mint, guardedLaunchInstructions, send); the copycat's pair
// gets a block, which the SDK refuses to turn into instructions, and which the program itself refuses when the
// Ed25519 instruction and the launch are sent anyway (the testing entry's uncheckedLaunchInstructions).
import type { OnchainDecisionRefusal, ServiceClient } from "@identity-protection/sdk";
import { guardedLaunchInstructions } from "@identity-protection/sdk/onchain-guard/solana";
import {
  airdroppedWallet,
  deployGuardedLaunchpadProgram,
  sendAndConfirmInstructions,
  uncheckedLaunchInstructions,
} from "@identity-protection/sdk/testing";
import { Connection, Keypair, LAMPORTS_PER_SOL, PublicKey, SendTransactionError } from "@solana/web3.js";
import type { LocalSolanaChain } from "./localChains";
import { type Pair, sdkRefusal, validateOnchain } from "./onchainValidate";

/** Enough for the program's deployment (rent of about 0.26 SOL) and its fees; a launcher needs far less. */
const ADMIN_LAMPORTS = 10 * LAMPORTS_PER_SOL;
const LAUNCHER_LAMPORTS = 1 * LAMPORTS_PER_SOL;

export interface GuardedSolanaOptions {
  /** A client with the sandbox key. */
  service: ServiceClient;
  launchpadId: string;
  chain: LocalSolanaChain;
  /** A free pair, and one the sandbox holds for another wallet. */
  pairs: { fresh: Pair; held: Pair };
  log: (message: string) => void;
}

export interface GuardedSolanaResult {
  launchProgram: string;
  launched: Pair & { mint: string; signature: string };
  copycat: Pair & { mint: string; decision: string; refusal: OnchainDecisionRefusal; programError: string };
}

interface Context {
  options: GuardedSolanaOptions;
  connection: Connection;
  launchProgram: PublicKey;
  launcher: Keypair;
}

/** A launch of `pair` by the launcher with a fresh mint, and validate's answer for it. */
async function validatedLaunch({ options, launchProgram, launcher }: Context, { name, ticker }: Pair) {
  const mint = Keypair.generate();
  const answer = await validateOnchain(options.service, "solana", {
    chain: options.chain.chain,
    name,
    ticker,
    launcher: launcher.publicKey.toBase58(),
    launchpadId: options.launchpadId,
    onchain: { launchpad: launchProgram.toBase58(), token: mint.publicKey.toBase58() },
  });
  const launch = {
    name,
    ticker,
    launcher: launcher.publicKey,
    mint: mint.publicKey,
    launchpadProgram: launchProgram,
  };
  return { launch, mint, answer };
}

/** The holder's launch: sent with the instructions the SDK builds from the allow. */
async function launchFreshPair(context: Context): Promise<GuardedSolanaResult["launched"]> {
  const { connection, launcher } = context;
  const { launch, mint, answer } = await validatedLaunch(context, context.options.pairs.fresh);
  const instructions = guardedLaunchInstructions(answer.onchain, {
    ...launch,
    // Optional checks: the decision is for this cluster and the registry this program obeys.
    cluster: await connection.getGenesisHash(),
    registryProgram: context.options.chain.sandboxRegistryProgram,
  });
  const signature = await sendAndConfirmInstructions(connection, instructions, [launcher, mint]);
  return { name: launch.name, ticker: launch.ticker, mint: mint.publicKey.toBase58(), signature };
}

/** The program error (its AnchorError log line's code) the chain refuses `send` with; throws if it did not refuse. */
async function programError(connection: Connection, send: () => Promise<unknown>): Promise<string> {
  try {
    await send();
  } catch (error) {
    if (!(error instanceof SendTransactionError)) throw error;
    const logs = await error.getLogs(connection);
    const code = logs.map((line) => /Error Code: (\w+)/.exec(line)?.[1]).find((found) => found !== undefined);
    if (code !== undefined) return code;
    throw error;
  }
  throw new Error(
    "The launch program accepted a launch signed as block: the guard is broken, do not use it.",
  );
}

/**
 * The copycat's launch: validate answers block and the SDK refuses to build it; sent anyway, the RPC's preflight
 * runs the program, which refuses it (nothing lands).
 */
async function tryCopycat(context: Context): Promise<GuardedSolanaResult["copycat"]> {
  const { launch, mint, answer } = await validatedLaunch(context, context.options.pairs.held);
  const refusal = sdkRefusal(() => guardedLaunchInstructions(answer.onchain, launch));
  const { connection, launcher } = context;
  const instructions = uncheckedLaunchInstructions(answer.onchain, launch);
  const error = await programError(connection, () =>
    sendAndConfirmInstructions(connection, instructions, [launcher, mint]),
  );
  return {
    name: launch.name,
    ticker: launch.ticker,
    mint: mint.publicKey.toBase58(),
    decision: answer.decision,
    refusal,
    programError: error,
  };
}

export async function runGuardedSolanaLaunch(options: GuardedSolanaOptions): Promise<GuardedSolanaResult> {
  const connection = new Connection(options.chain.rpcUrl, "confirmed");
  const admin = await airdroppedWallet(connection, ADMIN_LAMPORTS);
  const registryProgram = new PublicKey(options.chain.sandboxRegistryProgram);
  const launchProgram = await deployGuardedLaunchpadProgram(connection, admin, { registryProgram });
  options.log(
    `Solana: launch program ${launchProgram.toBase58()} deployed on ${options.chain.chain}, obeying the sandbox registry ${registryProgram.toBase58()}`,
  );
  const launcher = await airdroppedWallet(connection, LAUNCHER_LAMPORTS);
  const context = { options, connection, launchProgram, launcher };
  return {
    launchProgram: launchProgram.toBase58(),
    launched: await launchFreshPair(context),
    copycat: await tryCopycat(context),
  };
}
