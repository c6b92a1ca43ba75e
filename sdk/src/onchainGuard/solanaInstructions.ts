// The two instructions of a signed launch on the guarded launch program (programs/guarded_launchpad), byte for byte
// as it reads them: src/decision.c accepts the Ed25519 instruction only in the exact layout below, right before the
// launch; src/launch.c takes the launch's accounts in this order and its Borsh arguments.
// `buffer` is Node's module in Node and the npm package @solana/web3.js depends on in browsers.

import {
  Ed25519Program,
  type PublicKey,
  SYSVAR_INSTRUCTIONS_PUBKEY,
  SystemProgram,
  TransactionInstruction,
} from "@solana/web3.js";
import { Buffer } from "buffer";
import { borshString, concatBytes, i64, u8, u16 } from "./borsh";

/** The Ed25519 instruction data's parts (layout.h ED25519_*): one signature over data in the same instruction. */
export const ED25519_DECISION_LAYOUT = {
  publicKeyOffset: 16,
  signatureOffset: 48,
  messageOffset: 112,
  /** u16::MAX: "this instruction", for the signature, the public key and the message alike. */
  thisInstruction: 0xffff,
} as const;

/** sha256("global:launch")[0..8]: the launch instruction's discriminator (the IDL's, layout.h IX_LAUNCH). */
export const LAUNCH_DISCRIMINATOR = Uint8Array.of(153, 241, 93, 225, 22, 69, 74, 61);

export interface SignedMessage {
  /** The Ed25519 public key (32 bytes). */
  signer: Uint8Array;
  /** 64 bytes. */
  signature: Uint8Array;
  message: Uint8Array;
}

/** The Ed25519 program's verification of `signed`, every offset pointing into its own data. */
export function ed25519DecisionInstruction(signed: SignedMessage): TransactionInstruction {
  const at = ED25519_DECISION_LAYOUT;
  const header = concatBytes(
    u8(1), // one signature
    u8(0), // padding
    u16(at.signatureOffset),
    u16(at.thisInstruction),
    u16(at.publicKeyOffset),
    u16(at.thisInstruction),
    u16(at.messageOffset),
    u16(signed.message.length),
    u16(at.thisInstruction),
  );
  const data = concatBytes(header, signed.signer, signed.signature, signed.message);
  return new TransactionInstruction({
    programId: Ed25519Program.programId,
    keys: [],
    data: Buffer.from(data),
  });
}

/** The launch's accounts besides the instructions sysvar and the system program. */
export interface LaunchAccounts {
  launcher: PublicKey;
  config: PublicKey;
  mint: PublicKey;
  registryConfig: PublicKey;
  reservation: PublicKey;
  registryProgram: PublicKey;
}

export interface LaunchArgs {
  name: string;
  ticker: string;
  /** i64 unix seconds. */
  expiresAt: bigint;
  /** 16 bytes. */
  nonce: Uint8Array;
}

/** `launch(name, ticker, expires_at, nonce)`: launcher and mint sign (the mint is a fresh keypair). */
export function launchInstruction(
  launchpadProgram: PublicKey,
  accounts: LaunchAccounts,
  args: LaunchArgs,
): TransactionInstruction {
  const account = (pubkey: PublicKey, isSigner: boolean, isWritable: boolean) => ({
    pubkey,
    isSigner,
    isWritable,
  });
  const data = concatBytes(
    LAUNCH_DISCRIMINATOR,
    borshString(args.name),
    borshString(args.ticker),
    i64(args.expiresAt),
    args.nonce,
  );
  return new TransactionInstruction({
    programId: launchpadProgram,
    keys: [
      account(accounts.launcher, true, true),
      account(accounts.config, false, false),
      account(accounts.mint, true, true),
      account(accounts.registryConfig, false, false),
      account(accounts.reservation, false, false),
      account(accounts.registryProgram, false, false),
      account(SYSVAR_INSTRUCTIONS_PUBKEY, false, false),
      account(SystemProgram.programId, false, false),
    ],
    data: Buffer.from(data),
  });
}
