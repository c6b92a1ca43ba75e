// The wallet-proof shapes every route that asks a wallet to sign shares (payout wallets, disputes): the
// challenge request and answer, the issued challenge, the refusal codes of a checked answer, and how a
// challenge route reads its wallet and answers with the challenge.
import type { IncomingHttpHeaders } from "node:http";
import { z } from "zod";
import {
  type Challenge,
  MAX_MESSAGE_LENGTH,
  MAX_SIGNATURE_LENGTH,
  type WalletChallengeRequest,
} from "../../services/ownership";

export const walletRequest = z.strictObject({
  chain: z
    .string()
    .min(1)
    .max(64)
    .describe("A chain of GET /v1/chains; its family decides the message format."),
  address: z
    .string()
    .min(1)
    .max(64)
    .describe("EVM: 0x address (a key or an ERC-1271 account); Solana: base58 key."),
});

export const signedAnswer = z.strictObject({
  message: z.string().min(1).max(MAX_MESSAGE_LENGTH).describe("The challenge's message, exactly as issued."),
  signature: z
    .string()
    .min(1)
    .max(MAX_SIGNATURE_LENGTH)
    .describe("EVM: 0x hex of personal_sign; Solana: base58 of the 64-byte Ed25519 signature."),
});

export const PROOF_ERRORS = [
  "wallet_family_mismatch",
  "wallet_proof_unknown",
  "wallet_proof_replayed",
  "wallet_proof_expired",
  "wallet_proof_wrong_domain",
  "wallet_proof_message_altered",
  "wallet_proof_bad_signature",
] as const;

export const challengeSchema = z.object({
  challengeId: z.string(),
  chain: z.string(),
  family: z.enum(["evm", "solana"]),
  address: z.string(),
  domain: z.string(),
  nonce: z.string().describe("Single use; the message carries it."),
  message: z
    .string()
    .describe(
      "Sign exactly this text: EVM with personal_sign (EIP-4361 Sign-In-With-Ethereum), Solana with signMessage over its UTF-8 bytes.",
    ),
  issuedAt: z.string(),
  expiresAt: z.string(),
});

export function challengeJson(challenge: Challenge) {
  return {
    challengeId: challenge.challengeId,
    chain: challenge.chain,
    family: challenge.family,
    address: challenge.address,
    domain: challenge.domain,
    nonce: challenge.nonce,
    message: challenge.message,
    issuedAt: challenge.issuedAt.toISOString(),
    expiresAt: challenge.expiresAt.toISOString(),
  };
}

interface ChallengeInput {
  body: z.output<typeof walletRequest>;
  headers: IncomingHttpHeaders;
}

/**
 * The wallet a challenge route's body names, on the host the request was sent to: the domain the challenge
 * names and its answer must name.
 */
export function walletChallengeOf(input: ChallengeInput): WalletChallengeRequest {
  return { ...input.body, domain: input.headers.host ?? "" };
}

/** A challenge route's answer: the challenge `issue` makes for the request's wallet, 201. */
export async function issueChallenge(
  input: ChallengeInput,
  issue: (wallet: WalletChallengeRequest) => Promise<Challenge>,
): Promise<{ status: 201; body: ReturnType<typeof challengeJson> }> {
  return { status: 201, body: challengeJson(await issue(walletChallengeOf(input))) };
}
