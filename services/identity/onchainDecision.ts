// The on-chain form of a signed validation (docs/onchain-guard.md): the same decision, for one launchpad contract
// or program, one launcher and one token, signed so the chain's guard can verify it. EVM: an EIP-712
// LaunchDecision by the key's secp256k1 half; Solana: the 265-byte message by the key's Ed25519 key.
import { randomBytes } from "node:crypto";
import { PublicKey } from "@solana/web3.js";
import { isAddress } from "viem";
import type { GuardTarget } from "../../chains/registryClient";
import type { SignedDecision } from "../../core/decision";
import {
  type EvmOnchainDecision,
  LaunchDecisionFieldError,
  launchDecisionTypedData,
  type OnchainDecision,
  type OnchainDecisionRequest,
  type SolanaOnchainDecision,
  solanaLaunchDecisionMessage,
} from "../../core/decision/onchain";
import { solanaKey } from "../../core/decision/onchain/fields";
import { ApiError } from "../../core/errors/catalogue";
import { foldedHash, type NormalizedIdentity } from "../../core/fold";
import { type ActiveSigner, SignerUnavailableError } from "../signing/activeSigner";

const EVM_NONCE_BYTES = 32;
const SOLANA_NONCE_BYTES = 16;

/** What the guard enforces: only the service's `allow` launches; every other decision is signed as block. */
function guardDecision(decision: SignedDecision): "allow" | "block" {
  return decision.decision === "allow" ? "allow" : "block";
}

function hexNonce(bytes: number): `0x${string}` {
  return `0x${randomBytes(bytes).toString("hex")}`;
}

/** The request field a decision field came from, for the 400's `field`. */
const REQUEST_FIELD: Readonly<Record<string, string>> = {
  factory: "onchain.launchpad",
  launchpadProgram: "onchain.launchpad",
  launchpad: "onchain.launchpad",
  token: "onchain.token",
  mint: "onchain.token",
  launcher: "launcher",
};

/** A field the chain cannot encode is bad input (400 naming the request field), never a 500. */
function badField(error: unknown): never {
  if (error instanceof LaunchDecisionFieldError) {
    const field = REQUEST_FIELD[error.field] ?? `onchain.${error.field}`;
    throw new ApiError("invalid_request", `${error.message} (request field \`${field}\`)`, { field });
  }
  throw error;
}

async function evmDecision(
  target: Extract<GuardTarget, { family: "evm" }>,
  request: OnchainDecisionRequest,
  decision: SignedDecision,
  identity: NormalizedIdentity,
  signer: ActiveSigner,
): Promise<EvmOnchainDecision> {
  if (signer.evm === null) {
    throw new SignerUnavailableError(
      `Signing key ${signer.kid} has no EVM half yet; restart the service to add it.`,
    );
  }
  let typedData: ReturnType<typeof launchDecisionTypedData>;
  try {
    typedData = launchDecisionTypedData({
      chainId: target.chainId,
      factory: request.launchpad,
      nameHash: foldedHash(identity.normalizedName),
      tickerHash: foldedHash(identity.normalizedTicker),
      launcher: decision.launcher,
      token: request.token,
      decision: guardDecision(decision),
      expiresAt: new Date(decision.expiresAt),
      nonce: hexNonce(EVM_NONCE_BYTES),
    });
  } catch (error) {
    badField(error);
  }
  const { domain, message } = typedData;
  return {
    kind: "evm",
    chainId: domain.chainId,
    registry: target.registry,
    factory: domain.verifyingContract,
    nameHash: message.nameHash,
    tickerHash: message.tickerHash,
    launcher: message.launcher,
    token: message.token,
    decision: guardDecision(decision),
    expiresAt: Number(message.expiresAt),
    nonce: message.nonce,
    keyId: signer.kid,
    signer: signer.evm.address,
    signature: await signer.evm.signTypedData(typedData),
  };
}

function solanaDecision(
  target: Extract<GuardTarget, { family: "solana" }>,
  request: OnchainDecisionRequest,
  decision: SignedDecision,
  identity: NormalizedIdentity,
  signer: ActiveSigner,
): SolanaOnchainDecision {
  const fields = {
    cluster: target.cluster,
    registryProgram: target.registryProgram,
    launchpadProgram: request.launchpad,
    nameHash: foldedHash(identity.normalizedName),
    tickerHash: foldedHash(identity.normalizedTicker),
    launcher: decision.launcher,
    mint: request.token,
    decision: guardDecision(decision),
    expiresAt: Math.floor(Date.parse(decision.expiresAt) / 1000),
    nonce: hexNonce(SOLANA_NONCE_BYTES),
  };
  let message: Uint8Array;
  try {
    message = solanaLaunchDecisionMessage(fields);
  } catch (error) {
    badField(error);
  }
  return {
    kind: "solana",
    ...fields,
    message: Buffer.from(message).toString("base64"),
    keyId: signer.kid,
    signer: new PublicKey(Buffer.from(signer.publicKeyBase64, "base64")).toBase58(),
    signature: signer.signBytes(message).toString("base64"),
  };
}

/**
 * The guard target of a request's `onchain`, its addresses checked before anything is read or claimed: 409
 * onchain_decision_unavailable without a target, 400 for an address that is not one of the chain's.
 */
export function checkedOnchainTarget(
  target: GuardTarget | null,
  request: OnchainDecisionRequest,
  where: { chain: string; environment: string },
): GuardTarget {
  if (target === null) throw new ApiError("onchain_decision_unavailable", undefined, where);
  for (const field of ["launchpad", "token"] as const) {
    const value = request[field];
    if (target.family === "evm" && !isAddress(value)) {
      throw new ApiError(
        "invalid_request",
        `\`onchain.${field}\` must be a 0x address of 20 bytes (a mixed-case one with a valid checksum) on ${where.chain}.`,
        { field: `onchain.${field}` },
      );
    }
    if (target.family === "solana") {
      try {
        solanaKey(field, value);
      } catch (error) {
        badField(error);
      }
    }
  }
  return target;
}

/** The decision signed for the guard of `target` (checkedOnchainTarget). */
export function onchainDecision(
  target: GuardTarget,
  request: OnchainDecisionRequest,
  decision: SignedDecision,
  identity: NormalizedIdentity,
  signer: ActiveSigner,
): Promise<OnchainDecision> | OnchainDecision {
  return target.family === "evm"
    ? evmDecision(target, request, decision, identity, signer)
    : solanaDecision(target, request, decision, identity, signer);
}
