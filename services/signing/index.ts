// The signing context's public face: the published decision-signing keys and the server-side verifier over them.
import type { Pool } from "pg";
import { type VerificationResult, verifyDecision } from "../../core/decision";
import type { Environment } from "../../core/environment";
import { type PublicKeyEntry, publicKeyEntries } from "../../core/keyring";
import { readPublicKeys, readSigningKeyRecords } from "./publishedKeys";

export interface SigningService {
  /** The environment's keys: active first, then retiring, then revoked. */
  publicKeys(environment: Environment): Promise<PublicKeyEntry[]>;
  /** Verifies a signed decision against the environment's published keys, as of now. */
  verify(decision: unknown, environment: Environment): Promise<VerificationResult>;
}

export function signingService(pool: Pool, now: () => number): SigningService {
  return {
    publicKeys: (environment) => readPublicKeys(pool, environment),
    async verify(decision, environment) {
      const keys = publicKeyEntries(await readSigningKeyRecords(pool), environment);
      return verifyDecision(decision, { keys, environment, now: now() });
    },
  };
}
