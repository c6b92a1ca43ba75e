// A new reservation in two steps, as every client makes it: commit (the launcher's Commitment to the pair, the
// duration, the partner reference and a secret), then, at least min_commitment_slots later, reserve (the reveal).
// Works with any Anchor provider: `nextSlot` is how the caller gets past the commitment's slot (litesvm warps the
// clock; a JSON-RPC cluster waits). Reusable outside test/programs.
import { randomBytes } from "node:crypto";
import { BN } from "@coral-xyz/anchor";
import { type Connection, type Keypair, PublicKey, SystemProgram } from "@solana/web3.js";
import { foldedHash, foldV1 } from "../../../core/fold";
import {
  commitmentAccountAddress,
  commitmentHash,
  configAddress,
  type RegistryProgram,
  reservationAddress,
  treasuryAddress,
  walletAddress,
} from "../../../scripts/solana/registry";

export const NO_PARTNER: number[] = Array.from({ length: 32 }, () => 0);

export interface RevealRequest {
  name: string;
  ticker: string;
  durationSeconds: number;
  /** 32 bytes; defaults to zeros (no partner). */
  partnerRef?: number[];
  /** 32 bytes; defaults to fresh random bytes. */
  secret?: number[];
}

/** Everything both steps need: the request with its defaults filled, the commitment and every account. */
export interface RevealPlan {
  name: string;
  ticker: string;
  durationSeconds: number;
  partnerRef: number[];
  secret: number[];
  /** keccak256(name_hash || ticker_hash || launcher || duration u64 LE || partner_ref || secret). */
  commitment: number[];
  /** The reserve (reveal) instruction's accounts, camelCase as Anchor's client names them. */
  accounts: {
    launcher: PublicKey;
    config: PublicKey;
    priceUpdate: PublicKey;
    reservation: PublicKey;
    wallet: PublicKey;
    treasury: PublicKey;
    systemProgram: PublicKey;
    commitment: PublicKey;
  };
}

export function planReveal(
  programId: PublicKey,
  launcher: PublicKey,
  priceUpdate: PublicKey,
  request: RevealRequest,
): RevealPlan {
  const nameHash = foldedHash(foldV1(request.name));
  const tickerHash = foldedHash(foldV1(request.ticker));
  const partnerRef = request.partnerRef ?? NO_PARTNER;
  const secret = request.secret ?? Array.from(randomBytes(32));
  const commitment = commitmentHash(launcher, {
    nameHash,
    tickerHash,
    durationSeconds: request.durationSeconds,
    partnerRef: Uint8Array.from(partnerRef),
    secret: Uint8Array.from(secret),
  });
  return {
    name: request.name,
    ticker: request.ticker,
    durationSeconds: request.durationSeconds,
    partnerRef,
    secret,
    commitment: Array.from(commitment),
    accounts: {
      launcher,
      config: configAddress(programId),
      priceUpdate,
      reservation: reservationAddress(programId, nameHash, tickerHash),
      wallet: walletAddress(programId, launcher),
      treasury: treasuryAddress(programId),
      systemProgram: SystemProgram.programId,
      commitment: commitmentAccountAddress(programId, launcher, commitment),
    },
  };
}

/** The commit step (add `.signers([launcher])` unless the launcher is the provider's wallet). */
export function commitMethod(program: RegistryProgram, plan: RevealPlan) {
  return program.methods.commit(plan.commitment).accountsStrict({
    launcher: plan.accounts.launcher,
    commitment: plan.accounts.commitment,
    systemProgram: SystemProgram.programId,
  });
}

/** The reveal step: reserve with the plan's arguments and accounts. */
export function revealMethod(program: RegistryProgram, plan: RevealPlan) {
  return program.methods
    .reserve(plan.name, plan.ticker, new BN(plan.durationSeconds), plan.partnerRef, plan.secret)
    .accountsStrict(plan.accounts);
}

/**
 * Commits, waits for `nextSlot` (which must move the cluster at least min_commitment_slots past the commit), then
 * reveals; the launcher signs both. Returns the reveal's signature.
 */
export async function commitAndReveal(
  program: RegistryProgram,
  launcher: Keypair,
  priceUpdate: PublicKey,
  request: RevealRequest,
  nextSlot: () => Promise<void> | void,
): Promise<string> {
  const plan = planReveal(program.programId, launcher.publicKey, new PublicKey(priceUpdate), request);
  await commitMethod(program, plan).signers([launcher]).rpc();
  await nextSlot();
  return revealMethod(program, plan).signers([launcher]).rpc();
}

/**
 * For a JSON-RPC cluster: resolves once the cluster's slot is `slots` past the slot it reports now (call it after the
 * commit confirmed). Gives up after `timeoutMs`.
 */
export async function waitForSlots(connection: Connection, slots = 1, timeoutMs = 10_000): Promise<void> {
  const target = (await connection.getSlot("processed")) + slots;
  const deadline = Date.now() + timeoutMs;
  while ((await connection.getSlot("processed")) < target) {
    if (Date.now() > deadline)
      throw new Error(`the cluster did not reach slot ${target} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
