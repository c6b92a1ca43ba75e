// Solana: the transaction instructions of a signed launch on the guarded launch program (programs/guarded_launchpad),
// from the `onchain` of POST /v1/launches/validate: the Ed25519 verification of the decision, immediately followed by
// the launch. The program rebuilds the message from the launch and the Ed25519 program checks the signature; these
// helpers refuse, before a fee is paid, what the program would refuse anyway or what is not the launch the caller
// is about to send.
import { PublicKey, type TransactionInstruction } from "@solana/web3.js";
import type { SolanaOnchainDecision } from "../../../core/decision/onchain/answer";
import { fixedBytes, LaunchDecisionFieldError } from "../../../core/decision/onchain/fields";
import {
  SOLANA_LAUNCH_DECISION_NONCE_SIZE,
  solanaLaunchDecisionMessage,
} from "../../../core/decision/onchain/solanaLaunchDecision";
import { decodeBase64Strict } from "../../../core/encoding/base64";
import { SdkConfigError } from "../errors";
import {
  type CallerClock,
  malformed,
  requireKind,
  requireLiveAllow,
  requirePair,
  requireSame,
} from "./decisionChecks";
import { OnchainDecisionError, type OnchainDecisionRefusal } from "./errors";
import { configAddress, reservationAddress } from "./solanaAddresses";
import { ed25519DecisionInstruction, launchInstruction, type SignedMessage } from "./solanaInstructions";

/** A public key, or its base58 text. */
export type SolanaAddress = PublicKey | string;

/** The launch about to be sent: every field is compared with the decision's. */
export interface SolanaGuardedLaunch {
  name: string;
  ticker: string;
  /** The wallet that signs and pays the launch. */
  launcher: SolanaAddress;
  /** The fresh keypair's public key the launch creates (it signs the transaction too). */
  mint: SolanaAddress;
  /** The launch program the transaction goes to. */
  launchpadProgram: SolanaAddress;
  /** Defaults to the program's config PDA ["config"]. */
  launchpadConfig?: SolanaAddress;
  /** When given, the decision must be for this cluster (its genesis hash, `connection.getGenesisHash()`). */
  cluster?: string;
  /** When given, the decision must name this identity registry program. */
  registryProgram?: SolanaAddress;
}

export interface GuardedLaunchInstructionsOptions {
  /** The clock the expiry is judged by (epoch ms or a Date); defaults to the current time. */
  now?: CallerClock;
}

const SIGNATURE_BYTES = 64;

function sentKey(field: string, value: SolanaAddress): PublicKey {
  try {
    return new PublicKey(value);
  } catch {
    throw new SdkConfigError(
      `${field} must be a Solana public key or its base58 text, got ${String(value)}.`,
    );
  }
}

function base64Field(field: string, text: string, length: number): Uint8Array {
  const bytes = typeof text === "string" ? decodeBase64Strict(text) : null;
  if (bytes === null || (length !== undefined && bytes.length !== length)) {
    throw malformed(`The decision's ${field} is not ${length} bytes of canonical base64.`);
  }
  return bytes;
}

/** The message the answer's own fields make; throws when a field is malformed. */
function rebuiltMessage(onchain: SolanaOnchainDecision): Uint8Array {
  try {
    return solanaLaunchDecisionMessage(onchain);
  } catch (error) {
    if (!(error instanceof LaunchDecisionFieldError)) throw error;
    throw malformed(error.message);
  }
}

/** The signed message, signature and key, once the message proves to be the one its fields make. */
function signedDecision(onchain: SolanaOnchainDecision): SignedMessage {
  const rebuilt = rebuiltMessage(onchain);
  const message = base64Field("message", onchain.message, rebuilt.length);
  if (!message.every((byte, index) => byte === rebuilt[index])) {
    throw new OnchainDecisionError(
      "message_mismatch",
      "The decision's message is not the one its fields make: do not launch, and report the answer.",
    );
  }
  let signer: Uint8Array;
  try {
    signer = new PublicKey(onchain.signer).toBytes();
  } catch {
    throw malformed("The decision's signer is not a base58 public key.");
  }
  return { signer, signature: base64Field("signature", onchain.signature, SIGNATURE_BYTES), message };
}

/** Compares a decision's key with the one the launch sends. */
function requireSameKey(
  reason: OnchainDecisionRefusal,
  field: string,
  decided: string,
  sent: PublicKey,
): void {
  requireSame(reason, field, new PublicKey(decided).toBase58(), sent.toBase58());
}

/**
 * `[ed25519Instruction, launchInstruction]` of a signed launch, in this order and with nothing between them: put them
 * in one transaction signed by the launcher and the mint. Throws OnchainDecisionError (nothing to send) unless the
 * answer is a live allow whose message is its own fields', for exactly this launch program, launcher, mint and pair
 * (and cluster and registry when given); SdkConfigError for a malformed `launch`.
 */
export function guardedLaunchInstructions(
  onchain: SolanaOnchainDecision,
  launch: SolanaGuardedLaunch,
  options: GuardedLaunchInstructionsOptions = {},
): [TransactionInstruction, TransactionInstruction] {
  requireKind(onchain, "solana");
  const signed = signedDecision(onchain);
  const launchpadProgram = sentKey("launchpadProgram", launch.launchpadProgram);
  const launcher = sentKey("launcher", launch.launcher);
  const mint = sentKey("mint", launch.mint);
  requireLiveAllow(onchain, options.now);
  if (launch.cluster !== undefined) {
    requireSameKey("chain_mismatch", "cluster", onchain.cluster, sentKey("cluster", launch.cluster));
  }
  if (launch.registryProgram !== undefined) {
    const registry = sentKey("registryProgram", launch.registryProgram);
    requireSameKey("registry_mismatch", "registry program", onchain.registryProgram, registry);
  }
  requireSameKey("launchpad_mismatch", "launch program", onchain.launchpadProgram, launchpadProgram);
  requireSameKey("launcher_mismatch", "launcher", onchain.launcher, launcher);
  requireSameKey("token_mismatch", "mint", onchain.mint, mint);
  requirePair(onchain, launch.name, launch.ticker);

  return launchInstructionsOf(onchain, signed, { ...launch, launchpadProgram, launcher, mint });
}

/**
 * The two instructions of `onchain`'s launch as given, with no check of the decision: guardedLaunchInstructions sends
 * them once every check passed; the testing entry sends them unchecked, to show the program itself refuses.
 */
export function launchInstructionsOf(
  onchain: SolanaOnchainDecision,
  signed: SignedMessage,
  launch: Pick<SolanaGuardedLaunch, "name" | "ticker" | "launchpadConfig"> & {
    launchpadProgram: PublicKey;
    launcher: PublicKey;
    mint: PublicKey;
  },
): [TransactionInstruction, TransactionInstruction] {
  const { launchpadProgram, launcher, mint } = launch;
  const registryProgram = new PublicKey(onchain.registryProgram);
  const nameHash = fixedBytes("nameHash", onchain.nameHash, 32);
  const tickerHash = fixedBytes("tickerHash", onchain.tickerHash, 32);
  const accounts = {
    launcher,
    config:
      launch.launchpadConfig === undefined
        ? configAddress(launchpadProgram)
        : sentKey("launchpadConfig", launch.launchpadConfig),
    mint,
    registryConfig: configAddress(registryProgram),
    reservation: reservationAddress(registryProgram, nameHash, tickerHash),
    registryProgram,
  };
  const args = {
    name: launch.name,
    ticker: launch.ticker,
    expiresAt: BigInt(onchain.expiresAt),
    nonce: fixedBytes("nonce", onchain.nonce, SOLANA_LAUNCH_DECISION_NONCE_SIZE),
  };
  return [ed25519DecisionInstruction(signed), launchInstruction(launchpadProgram, accounts, args)];
}
