// The partners context's public face for the routes: self-serve sandbox keys (create, introspect, revoke).
// Admission of keyed requests is the API platform's (api/platform/partnerAuth over admission.ts).
import { randomBytes } from "node:crypto";
import type { Pool } from "pg";
import { ApiError } from "../../core/errors/catalogue";
import type { SecretBox } from "../../core/secrets/secretBox";
import { type ApiKeyRecord, createApiKey, findApiKey, revokeApiKey } from "./apiKeyStore";
import { findPartner, type Partner } from "./partnerStore";
import { PARTNER_SCOPES } from "./scopes";

export type { PartnerContext } from "./admission";
export type { Partner, PartnerIntegration, PayoutRouting } from "./partnerStore";
export { remainingOf } from "./rateWindow";
export { PARTNER_SCOPES } from "./scopes";

export interface SandboxSignUp {
  organization: string;
  email: string;
  label?: string | undefined;
}

export interface IssuedSandboxKey {
  /** The raw key, shown once. */
  apiKey: string;
  /** The signing secret issued with it, shown once (sealed at rest under the master key). */
  signingSecret: string;
  record: ApiKeyRecord;
}

export interface PartnersService {
  /** A new sandbox key with every scope; 503 when this service has no master key to seal its signing secret. */
  createSandboxKey(signUp: SandboxSignUp): Promise<IssuedSandboxKey>;
  key(keyId: string): Promise<ApiKeyRecord | undefined>;
  /** The partner's row (contact, environment access, split, integration starts, payout routing). */
  partner(partnerId: string): Promise<Partner | undefined>;
  /** Revokes a key at its holder's request. */
  revokeByHolder(keyId: string): Promise<ApiKeyRecord>;
}

function newSigningSecret(): string {
  return `svc_sigsec_${randomBytes(32).toString("base64url")}`;
}

function signingSecretContext(keyId: string): string {
  return `sandbox-signing-secret:${keyId}`;
}

export function partnersService(pool: Pool, box: SecretBox | undefined): PartnersService {
  return {
    async createSandboxKey(signUp) {
      if (box === undefined) {
        throw new ApiError(
          "service_unavailable",
          "This API runs without a master key, so it cannot issue signing secrets.",
        );
      }
      const signingSecret = newSigningSecret();
      const { record, issued } = await createApiKey(pool, {
        environment: "sandbox",
        scopes: PARTNER_SCOPES,
        rateLimitPerMinute: 60,
        label: signUp.label ?? "",
        organization: signUp.organization,
        email: signUp.email,
        createdBy: "self-serve",
        sealSigningSecret: (keyId) => box.seal(signingSecret, signingSecretContext(keyId)),
      });
      return { apiKey: issued.secret, signingSecret, record };
    },
    key: (keyId) => findApiKey(pool, keyId),
    partner: (partnerId) => findPartner(pool, partnerId),
    revokeByHolder: (keyId) =>
      revokeApiKey(pool, keyId, {
        actor: `key:${keyId}`,
        reason: "revoked by its holder (DELETE /v1/sandbox/keys)",
      }),
  };
}
