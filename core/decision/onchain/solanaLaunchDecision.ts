// The Solana launch decision: the 265-byte message the service's Ed25519 decision key signs for one launch through
// a guarded launchpad (programs/guarded_launchpad, docs/solana-program.md "The on-chain guard for launchpads"). The
// program rebuilds it from the launch's own accounts and arguments and compares it byte for byte, so this is the one
// definition of those bytes. Integers little-endian. Pure and browser-safe.
//
//   offset size field
//        0   16 domain             ASCII "idprot/launch/v1"
//       16   32 cluster            the cluster's genesis hash
//       48   32 registry program   the identity registry's program id
//       80   32 launchpad program  the launch program's id
//      112   32 name_hash          keccak256 of the folded name (the registry's reservation seed)
//      144   32 ticker_hash        keccak256 of the folded ticker
//      176   32 launcher           the launching wallet
//      208   32 mint               the mint the launch creates
//      240    1 decision           1 = allow, 0 = block
//      241    8 expires_at         i64 unix seconds; the launch must land before it
//      249   16 nonce
import {
  type BytesInput,
  decisionValue,
  fixedBytes,
  type LaunchDecisionValue,
  type SolanaKeyInput,
  solanaKey,
  type UnixSecondsInput,
  unixSeconds,
} from "./fields";

export const SOLANA_LAUNCH_DECISION_DOMAIN = "idprot/launch/v1";
export const SOLANA_LAUNCH_DECISION_SIZE = 265;
export const SOLANA_LAUNCH_DECISION_NONCE_SIZE = 16;
/** Where each field starts (programs/guarded_launchpad/src/layout.h, DECISION_*). */
export const SOLANA_LAUNCH_DECISION_OFFSETS = {
  domain: 0,
  cluster: 16,
  registryProgram: 48,
  launchpadProgram: 80,
  nameHash: 112,
  tickerHash: 144,
  launcher: 176,
  mint: 208,
  decision: 240,
  expiresAt: 241,
  nonce: 249,
} as const;

export interface SolanaLaunchDecisionFields {
  /** The cluster's genesis hash (`solana genesis-hash`): base58 or 32 bytes. */
  cluster: SolanaKeyInput;
  registryProgram: SolanaKeyInput;
  launchpadProgram: SolanaKeyInput;
  /** keccak256 of the folded name and ticker (core/fold foldedHash or foldedHashBytes): 0x hex or 32 bytes. */
  nameHash: BytesInput;
  tickerHash: BytesInput;
  launcher: SolanaKeyInput;
  mint: SolanaKeyInput;
  decision: LaunchDecisionValue;
  /** The launch must land before it: unix seconds (i64) or a Date (truncated to its second). */
  expiresAt: UnixSecondsInput;
  /** 16 bytes: 0x hex or raw. */
  nonce: BytesInput;
}

const I64 = { min: -(2n ** 63n), max: 2n ** 63n - 1n, type: "i64" };
const DOMAIN_BYTES = Uint8Array.from(SOLANA_LAUNCH_DECISION_DOMAIN, (character) => character.charCodeAt(0));

/**
 * The 265-byte message a decision key signs for one launch. Every field is checked first: a wrong type, length,
 * form or range throws LaunchDecisionFieldError (a TypeError) naming the field.
 */
export function solanaLaunchDecisionMessage(fields: SolanaLaunchDecisionFields): Uint8Array {
  const at = SOLANA_LAUNCH_DECISION_OFFSETS;
  const parts: [number, Uint8Array][] = [
    [at.cluster, solanaKey("cluster", fields.cluster)],
    [at.registryProgram, solanaKey("registryProgram", fields.registryProgram)],
    [at.launchpadProgram, solanaKey("launchpadProgram", fields.launchpadProgram)],
    [at.nameHash, fixedBytes("nameHash", fields.nameHash, 32)],
    [at.tickerHash, fixedBytes("tickerHash", fields.tickerHash, 32)],
    [at.launcher, solanaKey("launcher", fields.launcher)],
    [at.mint, solanaKey("mint", fields.mint)],
    [at.nonce, fixedBytes("nonce", fields.nonce, SOLANA_LAUNCH_DECISION_NONCE_SIZE)],
  ];
  const decision = decisionValue(fields.decision);
  const expiresAt = unixSeconds("expiresAt", fields.expiresAt, I64);

  const message = new Uint8Array(SOLANA_LAUNCH_DECISION_SIZE);
  message.set(DOMAIN_BYTES, at.domain);
  for (const [offset, bytes] of parts) message.set(bytes, offset);
  message[at.decision] = decision;
  new DataView(message.buffer).setBigInt64(at.expiresAt, expiresAt, true);
  return message;
}
