// The transactions a creator signs on the Solana registry, built offline from the IDL: every account the
// instruction names (PDAs derived here), the Anchor instruction data, the launcher as fee payer and only signer,
// and a compute-unit limit sized to the program's worst measured case. A new reservation is `commit` then the
// paying reveal `reserve`; a renewal is one `renew`. Shared by the real and the simulated client.
import { BN } from "@coral-xyz/anchor";
import {
  ComputeBudgetProgram,
  type PublicKey,
  SystemProgram,
  Transaction,
  TransactionInstruction,
} from "@solana/web3.js";
import type { NormalizedIdentity } from "../../core/fold";
import { MAX_COMMITMENT_AGE_SECONDS, type ReservationDuration } from "../../core/reservation";
import type { PreparedSteps, ReserveRequest, SolanaTransactionRequest } from "../registryClient";
import {
  commitmentAddress,
  configAddress,
  reservationAddress,
  treasuryAddress,
  walletAddress,
} from "./addresses";
import { solanaCommitment } from "./commitment";
import { instructionAccounts, registryCoder } from "./idl";

/**
 * reserve peaks at ~24,000 CU when both PDAs need long canonical-bump searches (docs/solana-program.md); a
 * limit well under the 200,000 default keeps the transaction cheap to schedule without risking a failure.
 */
export const REGISTRY_COMPUTE_UNIT_LIMIT = 40_000;

/**
 * Every account of the reserve, renew and commit instructions, camelCase like Anchor's client; `commitment` is
 * the launcher's commitment account, which only commit and reserve name.
 */
export interface RegistryInstructionAccounts {
  launcher: PublicKey;
  config: PublicKey;
  priceUpdate: PublicKey;
  reservation: PublicKey;
  wallet: PublicKey;
  treasury: PublicKey;
  systemProgram: PublicKey;
  commitment?: PublicKey;
}

export function registryInstructionAccounts(
  programId: PublicKey,
  priceUpdate: PublicKey,
  launcher: PublicKey,
  identity: Pick<NormalizedIdentity, "nameHash" | "tickerHash">,
): RegistryInstructionAccounts {
  return {
    launcher,
    config: configAddress(programId),
    priceUpdate,
    reservation: reservationAddress(programId, identity.nameHash, identity.tickerHash),
    wallet: walletAddress(programId, launcher),
    treasury: treasuryAddress(programId),
    systemProgram: SystemProgram.programId,
  };
}

const camelCase = (name: string) => name.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());

export type RegistryInstructionArgs =
  | {
      kind: "reserve";
      identity: Pick<NormalizedIdentity, "normalizedName" | "normalizedTicker">;
      durationSeconds: ReservationDuration;
      /** bytes32 hex; the program emits it as given. */
      partnerRef: `0x${string}`;
      /** bytes32 hex the commitment hid the pair behind. */
      secret: `0x${string}`;
    }
  | { kind: "commit"; commitment: `0x${string}` }
  /** renew carries no partner reference: the program's instruction takes only the duration. */
  | { kind: "renew"; durationSeconds: ReservationDuration };

function bytes32(hex: `0x${string}`, what: string): number[] {
  const bytes = Buffer.from(hex.slice(2), "hex");
  if (bytes.length !== 32) throw new TypeError(`${what} must be 32 bytes of hex, got ${hex}`);
  return Array.from(bytes);
}

function instructionData(args: RegistryInstructionArgs): Buffer {
  const coder = registryCoder().instruction;
  if (args.kind === "renew") return coder.encode("renew", { duration_seconds: new BN(args.durationSeconds) });
  if (args.kind === "commit")
    return coder.encode("commit", { commitment: bytes32(args.commitment, "commitment") });
  return coder.encode("reserve", {
    name: args.identity.normalizedName,
    ticker: args.identity.normalizedTicker,
    duration_seconds: new BN(args.durationSeconds),
    partner_ref: bytes32(args.partnerRef, "partnerRef"),
    secret: bytes32(args.secret, "secret"),
  });
}

/** The instruction with its accounts in the IDL's order and flags. */
export function registryInstruction(
  programId: PublicKey,
  accounts: RegistryInstructionAccounts,
  args: RegistryInstructionArgs,
): TransactionInstruction {
  const named = accounts as unknown as Record<string, PublicKey>;
  const keys = instructionAccounts(args.kind).map((account) => {
    const pubkey = named[camelCase(account.name)];
    if (pubkey === undefined) throw new Error(`No address for account ${account.name} of ${args.kind}.`);
    return { pubkey, isSigner: account.signer === true, isWritable: account.writable === true };
  });
  return new TransactionInstruction({ programId, keys, data: instructionData(args) });
}

export interface RecentBlockhash {
  blockhash: string;
  lastValidBlockHeight: number;
}

/** The unsigned legacy transaction, base64 of its wire bytes; the launcher signs it as fee payer. */
export function registryTransaction(
  programId: PublicKey,
  accounts: RegistryInstructionAccounts,
  args: RegistryInstructionArgs,
  recent: RecentBlockhash,
): SolanaTransactionRequest {
  const transaction = new Transaction({ feePayer: accounts.launcher, ...recent }).add(
    ComputeBudgetProgram.setComputeUnitLimit({ units: REGISTRY_COMPUTE_UNIT_LIMIT }),
    registryInstruction(programId, accounts, args),
  );
  return {
    family: "solana",
    tx: transaction.serialize({ requireAllSignatures: false, verifySignatures: false }).toString("base64"),
    feePayer: accounts.launcher.toBase58(),
    recentBlockhash: recent.blockhash,
    lastValidBlockHeight: recent.lastValidBlockHeight,
  };
}

/**
 * The renewal, or the commitment and its reveal, of `request` for the program at `programId`. Both carry the
 * same blockhash: a reveal signed after it lapsed needs a fresh one (GET /v1/solana/blockhash).
 */
export function registrySteps(
  programId: PublicKey,
  accounts: RegistryInstructionAccounts,
  request: ReserveRequest,
  recent: RecentBlockhash,
  minCommitmentSlots: number,
): PreparedSteps {
  const { identity, durationSeconds, partnerRef } = request;
  if (request.kind === "renew") {
    return {
      transaction: registryTransaction(programId, accounts, { kind: "renew", durationSeconds }, recent),
      reveal: null,
    };
  }
  if (request.secret === null) throw new TypeError("a new reservation needs the secret its commitment hides");
  const { secret } = request;
  const commitment = solanaCommitment({
    identity,
    launcher: accounts.launcher,
    durationSeconds,
    partnerRef,
    secret,
  });
  const withCommitment = {
    ...accounts,
    commitment: commitmentAddress(programId, accounts.launcher, commitment),
  };
  return {
    transaction: registryTransaction(programId, withCommitment, { kind: "commit", commitment }, recent),
    reveal: {
      transaction: registryTransaction(
        programId,
        withCommitment,
        { kind: "reserve", identity, durationSeconds, partnerRef, secret },
        recent,
      ),
      commitment,
      minCommitmentAge: { slots: minCommitmentSlots },
      maxCommitmentAgeSeconds: MAX_COMMITMENT_AGE_SECONDS,
    },
  };
}
