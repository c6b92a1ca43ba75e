// The wallet-proof context's public face: issue a single-use sign-in challenge for an address on a chain, check a
// signed answer (nonce, family, expiry, domain, exact message, signature: each failure its own 400 code) and
// consume the challenge inside the caller's transaction. Payout wallets use it; any other proof of wallet
// ownership (disputes) uses it with its own purpose. Formats: messages.ts; signatures: signatures.ts.
import { randomBytes } from "node:crypto";
import type { Pool, PoolClient } from "pg";
import { getAddress } from "viem";
import type { RegistryClient } from "../../chains/registryClient";
import { onChainKey } from "../../core/address/equality";
import { launcherFamily } from "../../core/address/launcherFormat";
import { ApiError } from "../../core/errors/catalogue";
import type { ChainFamily } from "../../core/status";
import { fromChain, registryFor } from "../reservations/chainAccess";
import {
  type Challenge,
  consumeChallenge,
  insertChallenge,
  ownChallengeByNonce,
  type ProofOwner,
  type ProofPurpose,
} from "./challengeStore";
import { challengeMessage, parseSignedMessage } from "./messages";
import { type ProofKind, provenBy, signatureFamilyOf } from "./signatures";

export type { Challenge, PartnerProofOwner, ProofOwner, ProofPurpose } from "./challengeStore";
export { openChallenges } from "./challengeStore";
export type { ProofKind } from "./signatures";

/** How long a challenge may be answered. */
export const CHALLENGE_TTL_SECONDS = 600;
/** Longest signed message and signature accepted (an ERC-1271 account may sign with more than 65 bytes). */
export const MAX_MESSAGE_LENGTH = 2_000;
export const MAX_SIGNATURE_LENGTH = 4_096;

const DOMAIN = /^[A-Za-z0-9.-]{1,253}(:[0-9]{1,5})?$/;

/** The wallet a caller asks to prove, as a challenge route takes it. */
export interface WalletChallengeRequest {
  chain: string;
  address: string;
  /** The host the challenge was asked on: the message names it and the answer must too. */
  domain: string;
}

/** A wallet challenge for one use: what it is for, what signing means and where the answer goes. */
export interface ChallengeRequest extends WalletChallengeRequest {
  purpose: ProofPurpose;
  /** What signing means, in words the wallet shows. */
  statement: string;
  /** The path of the endpoint that takes the answer, on the host the challenge was asked on. */
  answerPath: string;
}

export interface SignedAnswer {
  message: string;
  signature: string;
}

/** A checked answer: its challenge and how the signature proved ownership. */
export interface CheckedProof {
  challenge: Challenge;
  proof: ProofKind;
}

export interface ProofChain {
  chain: string;
  family: ChainFamily;
}

export interface WalletProofs {
  /** The chain by its manifest name; 400 for an unknown one, 503 without chains. */
  chainOf(chain: string): ProofChain;
  /** Issues a challenge for `address` inside the caller's transaction. */
  issue(client: PoolClient, owner: ProofOwner, request: ChallengeRequest, now: Date): Promise<Challenge>;
  /**
   * Checks an answer against the owner's challenge; throws the failure's own 400 code. No writes; may ask the
   * chain (ERC-1271), so call it outside any transaction.
   */
  check(
    db: Pool,
    owner: ProofOwner,
    purpose: ProofPurpose,
    answer: SignedAnswer,
    now: Date,
  ): Promise<CheckedProof>;
  /** Uses the checked proof's challenge up, in the caller's transaction; 400 when it was used or expired meanwhile. */
  consume(client: PoolClient, checked: CheckedProof, now: Date): Promise<void>;
}

/** The address as stored and compared (EVM lowercase), after its family is checked against the chain's. */
function addressOn(chain: ProofChain, address: string): string {
  const family = launcherFamily(address);
  if (family === null) {
    throw new ApiError(
      "invalid_request",
      "`address` must be a 0x-prefixed 20-byte hex address (EVM chains) or a base58 Solana public key.",
      { field: "address" },
    );
  }
  if (family !== chain.family) {
    throw new ApiError("wallet_family_mismatch", undefined, {
      chain: chain.chain,
      chainFamily: chain.family,
      addressFamily: family,
    });
  }
  return onChainKey(family, address);
}

function checkedDomain(domain: string): string {
  if (!DOMAIN.test(domain)) {
    throw new ApiError(
      "invalid_request",
      "The request's Host header is not a host name a message can carry.",
      {
        field: "host",
      },
    );
  }
  return domain.toLowerCase();
}

const newId = (prefix: string) => `${prefix}_${randomBytes(16).toString("hex")}`;

/** The used-or-expired answer for a challenge that can no longer be consumed. */
function unusable(challenge: Challenge, now: Date): ApiError | undefined {
  if (challenge.consumedAt !== null) {
    return new ApiError("wallet_proof_replayed", undefined, {
      consumedAt: challenge.consumedAt.toISOString(),
    });
  }
  if (now.getTime() >= challenge.expiresAt.getTime()) {
    return new ApiError("wallet_proof_expired", undefined, { expiresAt: challenge.expiresAt.toISOString() });
  }
  return undefined;
}

/**
 * Wallet proofs over the service's chains: `chains` are the production registries (signatures are checked
 * against the real chain in both environments: a read, never a write).
 */
export function walletProofs(chains: ReadonlyMap<string, RegistryClient> | undefined): WalletProofs {
  const chainOf = (name: string): ProofChain => {
    const registry = registryFor(chains, name);
    return { chain: registry.chain, family: registry.family };
  };
  const verifierOf = (name: string) => chains?.get(name)?.messageVerifier;
  /** An EVM chain's id for the SIWE message; an EVM registry without one cannot check proofs: fail closed. */
  const chainIdOf = (name: string): number => {
    const verifier = verifierOf(name);
    if (verifier === undefined) {
      throw new ApiError("service_unavailable", `Chain ${name} has no RPC to check wallet proofs on.`, {
        cause: "chain",
        chain: name,
      });
    }
    return verifier.chainId;
  };

  return {
    chainOf,
    async issue(client, owner, request, now) {
      const chain = chainOf(request.chain);
      const address = addressOn(chain, request.address);
      const nonce = randomBytes(16).toString("hex");
      const domain = checkedDomain(request.domain);
      const expiresAt = new Date(now.getTime() + CHALLENGE_TTL_SECONDS * 1000);
      const message = challengeMessage({
        family: chain.family,
        domain,
        address: chain.family === "evm" ? getAddress(address) : address,
        statement: request.statement,
        uri: `https://${request.domain}${request.answerPath}`,
        chainId: chain.family === "evm" ? chainIdOf(chain.chain) : chain.chain,
        nonce,
        issuedAt: now,
        expiresAt,
      });
      const challenge: Challenge = {
        challengeId: newId("wpc"),
        owner,
        purpose: request.purpose,
        chain: chain.chain,
        family: chain.family,
        address,
        nonce,
        domain,
        message,
        issuedAt: now,
        expiresAt,
        consumedAt: null,
      };
      await insertChallenge(client, challenge);
      return challenge;
    },

    async check(db, owner, purpose, answer, now) {
      const parsed = parseSignedMessage(answer.message);
      if (parsed === null || parsed.nonce === undefined) {
        throw new ApiError(
          "invalid_request",
          "`message` must be the sign-in message of a challenge, as issued (with its Nonce line).",
          { field: "message" },
        );
      }
      const challenge = await ownChallengeByNonce(db, owner, purpose, parsed.nonce);
      if (challenge === undefined) throw new ApiError("wallet_proof_unknown");
      const signatureFamily = signatureFamilyOf(answer.signature);
      if (signatureFamily === null) {
        throw new ApiError(
          "invalid_request",
          "`signature` must be 0x-prefixed hex (EVM personal_sign) or base58 of 64 bytes (Solana Ed25519).",
          { field: "signature" },
        );
      }
      if (parsed.family !== challenge.family || signatureFamily !== challenge.family) {
        throw new ApiError("wallet_family_mismatch", undefined, {
          chain: challenge.chain,
          chainFamily: challenge.family,
          messageFamily: parsed.family,
          signatureFamily,
        });
      }
      const refusal = unusable(challenge, now);
      if (refusal !== undefined) throw refusal;
      if (parsed.domain?.toLowerCase() !== challenge.domain) {
        throw new ApiError("wallet_proof_wrong_domain", undefined, { expected: challenge.domain });
      }
      if (answer.message !== challenge.message) throw new ApiError("wallet_proof_message_altered");
      const proof = await fromChain(
        provenBy(
          { family: challenge.family, address: challenge.address, ...answer },
          verifierOf(challenge.chain),
        ),
      );
      if (proof === null) {
        throw new ApiError("wallet_proof_bad_signature", undefined, {
          address: challenge.address,
          chain: challenge.chain,
        });
      }
      return { challenge, proof };
    },

    async consume(client, checked, now) {
      if (await consumeChallenge(client, checked.challenge.challengeId, now)) return;
      const current = await ownChallengeByNonce(
        client,
        checked.challenge.owner,
        checked.challenge.purpose,
        checked.challenge.nonce,
      );
      throw (current && unusable(current, now)) ?? new ApiError("wallet_proof_unknown");
    },
  };
}
