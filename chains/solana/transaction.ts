// The reserve and renew transactions, built offline from the IDL: every account the instruction names (PDAs
// derived here), the Anchor instruction data, the launcher as fee payer and only signer, and a compute-unit
// limit sized to the program's worst measured case. Shared by the real and the simulated client.
import { BN } from "@coral-xyz/anchor";
import {
  ComputeBudgetProgram,
  type PublicKey,
  SystemProgram,
  Transaction,
  TransactionInstruction,
} from "@solana/web3.js";
import type { NormalizedIdentity } from "../../core/fold";
import type { ReservationDuration } from "../../core/reservation";
import type { SolanaTransactionRequest } from "../registryClient";
import { configAddress, reservationAddress, treasuryAddress, walletAddress } from "./addresses";
import { instructionAccounts, registryCoder } from "./idl";

/**
 * reserve peaks at ~24,000 CU when both PDAs need long canonical-bump searches (docs/solana-program.md); a
 * limit well under the 200,000 default keeps the transaction cheap to schedule without risking a failure.
 */
export const REGISTRY_COMPUTE_UNIT_LIMIT = 40_000;

/** Every account of the reserve and renew instructions (both take the same list), camelCase like Anchor's client. */
export interface RegistryInstructionAccounts {
  launcher: PublicKey;
  config: PublicKey;
  priceUpdate: PublicKey;
  reservation: PublicKey;
  wallet: PublicKey;
  treasury: PublicKey;
  systemProgram: PublicKey;
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
    }
  /** renew carries no partner reference: the program's instruction takes only the duration. */
  | { kind: "renew"; durationSeconds: ReservationDuration };

function instructionData(args: RegistryInstructionArgs): Buffer {
  if (args.kind === "renew") {
    return registryCoder().instruction.encode("renew", { duration_seconds: new BN(args.durationSeconds) });
  }
  const partnerRef = Buffer.from(args.partnerRef.slice(2), "hex");
  if (partnerRef.length !== 32)
    throw new TypeError(`partnerRef must be 32 bytes of hex, got ${args.partnerRef}`);
  return registryCoder().instruction.encode("reserve", {
    name: args.identity.normalizedName,
    ticker: args.identity.normalizedTicker,
    duration_seconds: new BN(args.durationSeconds),
    partner_ref: Array.from(partnerRef),
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

/** The instruction arguments of a ReserveRequest-like input. */
export function instructionArgs(request: {
  kind: "reserve" | "renew";
  identity: Pick<NormalizedIdentity, "normalizedName" | "normalizedTicker">;
  durationSeconds: ReservationDuration;
  partnerRef: `0x${string}`;
}): RegistryInstructionArgs {
  return request.kind === "renew"
    ? { kind: "renew", durationSeconds: request.durationSeconds }
    : {
        kind: "reserve",
        identity: request.identity,
        durationSeconds: request.durationSeconds,
        partnerRef: request.partnerRef,
      };
}
