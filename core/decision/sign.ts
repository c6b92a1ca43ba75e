// Server-side decision signing with node:crypto Ed25519 (OpenSSL; ~7x noble's speed on the hot path).
import { type KeyObject, sign } from "node:crypto";
import type { Environment } from "../environment";
import { ServiceError } from "../errors/serviceError";
import { IDENTITY_KEY_SEPARATOR } from "../fold";
import { canonicalDecisionBytes, DecisionFieldError } from "./canonical";
import {
  DECISION_LIFETIME_SECONDS,
  DECISION_SIGNATURE_ALG,
  DECISION_VERSION,
  type SignedDecision,
  type SignedFields,
} from "./format";

/** What the validation endpoint decided; the signer adds version, expiry, environment and signature. */
export type DecisionRequest = Omit<SignedFields, "version" | "issuedAt" | "expiresAt"> & { issuedAt: Date };

export interface DecisionSigningKey {
  kid: string;
  environment: Environment;
  privateKey: KeyObject;
}

export type DecisionSigner = (request: DecisionRequest) => SignedDecision;

/** Thrown when a key handed to the signer cannot sign decisions. */
export class SigningKeyError extends ServiceError {
  constructor(message: string) {
    super(message);
  }
}

function signedFieldsOf(request: DecisionRequest): SignedFields {
  const expiresAt = new Date(request.issuedAt.getTime() + DECISION_LIFETIME_SECONDS * 1000);
  const fields: SignedFields = {
    version: DECISION_VERSION,
    requestId: request.requestId,
    identityKey: request.identityKey,
    normalizedName: request.normalizedName,
    normalizedTicker: request.normalizedTicker,
    chain: request.chain,
    launchpadId: request.launchpadId,
    launcher: request.launcher,
    decision: request.decision,
    reason: request.reason,
    issuedAt: request.issuedAt.toISOString(),
    expiresAt: expiresAt.toISOString(),
  };
  if (request.nonce !== undefined) fields.nonce = request.nonce;
  return fields;
}

function assertConsistentIdentity(request: DecisionRequest): void {
  const expectedKey = `${request.normalizedName}${IDENTITY_KEY_SEPARATOR}${request.normalizedTicker}`;
  if (request.identityKey !== expectedKey) {
    throw new DecisionFieldError(
      "identityKey",
      `Decision field "identityKey" is ${JSON.stringify(request.identityKey)} but normalizedName and normalizedTicker give ${JSON.stringify(expectedKey)}; build all three from normalizeIdentity().`,
    );
  }
}

/** A signer bound to one private key; checks the key once, then signs each decision. */
export function createDecisionSigner(key: DecisionSigningKey): DecisionSigner {
  if (key.privateKey.type !== "private" || key.privateKey.asymmetricKeyType !== "ed25519") {
    throw new SigningKeyError(
      `Signing key ${key.kid} must be an Ed25519 private key; check the key ring entry.`,
    );
  }
  return (request) => {
    if (Number.isNaN(request.issuedAt.getTime())) {
      throw new DecisionFieldError("issuedAt", 'Decision field "issuedAt" is not a valid date.');
    }
    assertConsistentIdentity(request);
    const fields = signedFieldsOf(request);
    const signature = sign(null, canonicalDecisionBytes(fields), key.privateKey).toString("base64");
    // Completes the fields' own object rather than copying it into a second one: a decision is made per
    // validation and outlives its record's commit.
    const signing: Omit<SignedDecision, keyof SignedFields> = {
      environment: key.environment,
      signature,
      signatureAlg: DECISION_SIGNATURE_ALG,
      keyId: key.kid,
    };
    return Object.assign(fields, signing);
  };
}
