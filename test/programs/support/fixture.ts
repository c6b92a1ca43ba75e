// A fresh litesvm with the committed identity_registry.so deployed through the upgradeable loader, the config
// initialized with local settings (1-slot commitments) and a $150/SOL price; plus helpers to reserve (commit, warp
// one slot, reveal) and renew through the Anchor client.
import { BN, translateError } from "@coral-xyz/anchor";
import { Keypair, PublicKey, Transaction, type TransactionInstruction } from "@solana/web3.js";
import { LiteSVM } from "litesvm";
import { foldedHash, foldV1 } from "../../../core/fold";
import { deployIdentityRegistry, type RegistryDeployment } from "../../../scripts/solana/deploy";
import { LiteSvmConnection } from "../../../scripts/solana/litesvm-connection";
import { LiteSvmProvider } from "../../../scripts/solana/litesvm-provider";
import {
  configAddress,
  type LocalPrice,
  pushLocalPrice,
  type RegistryProgram,
  registryProgram,
  reservationAddress,
  treasuryAddress,
  walletAddress,
} from "../../../scripts/solana/registry";
import {
  commitAndReveal,
  commitMethod,
  NO_PARTNER,
  planReveal,
  type RevealPlan,
  type RevealRequest,
  revealMethod,
} from "./commitReveal";

export {
  commitAndReveal,
  commitMethod,
  NO_PARTNER,
  planReveal,
  type RevealPlan,
  type RevealRequest,
  revealMethod,
};
export const START_TIME = 1_767_225_600n; // 2026-01-01T00:00:00Z
export const SOL_PRICE: LocalPrice = { price: 150_00000000n, exponent: -8, publishTime: Number(START_TIME) };
export const DAY = 86_400;

export interface Fixture {
  provider: LiteSvmProvider;
  admin: Keypair;
  program: RegistryProgram;
  programId: PublicKey;
  deployment: RegistryDeployment;
}

interface Snapshot {
  state: Uint8Array;
  admin: Keypair;
  deployment: RegistryDeployment;
}
let snapshot: Promise<Snapshot> | null = null;

async function deployOnce(): Promise<Snapshot> {
  const admin = Keypair.generate();
  const provider = LiteSvmProvider.create(admin);
  provider.svm.setUnixTimestamp(START_TIME);
  const deployment = await deployIdentityRegistry(provider, { localPrice: SOL_PRICE });
  return { state: provider.svm.svm.toBytes(), admin, deployment };
}

/** A registry deployed through the upgradeable loader; each call gets its own copy of the deployed state. */
export async function deployedRegistry(): Promise<Fixture> {
  snapshot ??= deployOnce();
  const { state, admin, deployment } = await snapshot;
  const provider = new LiteSvmProvider(new LiteSvmConnection(LiteSVM.fromBytes(state)), admin);
  const programId = new PublicKey(deployment.programId);
  return { provider, admin, program: registryProgram(provider, programId), programId, deployment };
}

/** Funds a new wallet and returns it. */
export function fundedWallet(fixture: Fixture, lamports = 100_000_000_000n): Keypair {
  const wallet = Keypair.generate();
  fixture.provider.svm.airdrop(wallet.publicKey, lamports);
  return wallet;
}

/** Moves the clock and republishes the price at the new time, so only the clock matters. */
export async function advanceTo(fixture: Fixture, unixTimestamp: bigint): Promise<void> {
  fixture.provider.svm.setUnixTimestamp(unixTimestamp);
  await pushLocalPrice(fixture.program, { ...SOL_PRICE, publishTime: Number(unixTimestamp) });
}

/** Moves the cluster `slots` slots on, keeping its time: past a commitment's minimum age (1 slot locally). */
export function warpSlots(fixture: Fixture, slots = 1): void {
  const svm = fixture.provider.svm.svm;
  svm.warpToSlot(svm.getClock().slot + BigInt(slots));
}

export function priceAccountOf(fixture: Fixture): PublicKey {
  return fixture.deployment.priceAccount ? new PublicKey(fixture.deployment.priceAccount) : PublicKey.default;
}

/** The seven accounts renew takes (reserve takes them plus its commitment). */
export function reservationKeys(fixture: Fixture, launcher: PublicKey, name: string, ticker: string) {
  const { programId } = fixture;
  return {
    launcher,
    config: configAddress(programId),
    priceUpdate: priceAccountOf(fixture),
    reservation: reservationAddress(programId, foldedHash(foldV1(name)), foldedHash(foldV1(ticker))),
    wallet: walletAddress(programId, launcher),
    treasury: treasuryAddress(programId),
    systemProgram: PublicKey.default,
  };
}

/** One new reservation: its plan, its two steps signed by the launcher, and `rpc()` running them. */
export interface ReserveCall {
  plan: RevealPlan;
  commit: ReturnType<typeof commitMethod>;
  reveal: ReturnType<typeof revealMethod>;
  /** Commits, warps one slot, reveals; resolves with the reveal's signature (errors are the step's AnchorError). */
  rpc(): Promise<string>;
}

export function reserveCall(
  fixture: Fixture,
  launcher: Keypair,
  name: string,
  ticker: string,
  duration = DAY,
  options: Pick<RevealRequest, "partnerRef" | "secret"> = {},
): ReserveCall {
  const request = { name, ticker, durationSeconds: duration, ...options };
  const plan = planReveal(fixture.programId, launcher.publicKey, priceAccountOf(fixture), request);
  return {
    plan,
    commit: commitMethod(fixture.program, plan).signers([launcher]),
    reveal: revealMethod(fixture.program, plan).signers([launcher]),
    rpc: async () => {
      await commitMethod(fixture.program, plan).signers([launcher]).rpc();
      warpSlots(fixture);
      return revealMethod(fixture.program, plan).signers([launcher]).rpc();
    },
  };
}

/** `commitAndReveal` on this fixture: commit, warp one slot, reveal. */
export function reserveWith(fixture: Fixture, launcher: Keypair, request: RevealRequest): Promise<string> {
  return commitAndReveal(fixture.program, launcher, priceAccountOf(fixture), request, () =>
    warpSlots(fixture),
  );
}

export function renewCall(fixture: Fixture, launcher: Keypair, name: string, ticker: string, duration = DAY) {
  return fixture.program.methods
    .renew(new BN(duration))
    .accountsStrict(reservationKeys(fixture, launcher.publicKey, name, ticker))
    .signers([launcher]);
}

/** Sends hand-built instructions (for attacks the typed client would not build), with Anchor's error decoding. */
export async function sendInstructions(
  fixture: Fixture,
  instructions: TransactionInstruction[],
  signers: Keypair[] = [],
): Promise<string> {
  try {
    return await fixture.provider.sendAndConfirm(new Transaction().add(...instructions), signers);
  } catch (error) {
    throw translateError(error, new Map());
  }
}

/** A provider over the same cluster whose wallet (fee payer, default signer) is `wallet`. */
export function providerFor(fixture: Fixture, wallet: Keypair): LiteSvmProvider {
  return new LiteSvmProvider(fixture.provider.svm, wallet);
}
