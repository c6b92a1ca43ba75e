// The partners context's public face for the routes: the partner's row, onboarding (access requests, email
// verification, production requests), self-serve sandbox keys (create, rotate, introspect, revoke) and the
// calling key's request logs and usage. Admission of keyed requests is the API platform's (api/platform/
// partnerAuth over admission.ts); it hands each answered keyed request to `recordRequest`.
import type { Pool } from "pg";
import { ApiError } from "../../core/errors/catalogue";
import type { SecretBox } from "../../core/secrets/secretBox";
import { withTransaction } from "../../storage/transaction";
import type { Mailer } from "../mail";
import { type AccessRequest, type AccessRequestInput, recordAccessRequest } from "./accessRequests";
import type { PartnerContext } from "./admission";
import { type ApiKeyRecord, createApiKey, findApiKey, revokeApiKey } from "./apiKeyStore";
import { consumeVerificationToken, issueVerificationToken } from "./emailVerification";
import { type RotationRequest, rotateSandboxKey } from "./keyRotation";
import { rotationMail, verificationMail } from "./partnerMail";
import { findPartner, type Partner } from "./partnerStore";
import { type ProductionRequest, requestProduction } from "./productionAccess";
import {
  DEFAULT_RECORDER_OPTIONS,
  type RecorderOptions,
  type RequestLogEntry,
  type RequestLogLine,
  recentRequests,
  requestRecorder,
  type UsageRow,
  usageOf,
} from "./requestLog";
import { newSandboxSigningSecret, sealSandboxSigningSecret } from "./sandboxSigningSecret";
import { PARTNER_SCOPES } from "./scopes";

export type { AccessRequest } from "./accessRequests";
export type { PartnerContext } from "./admission";
export type { Partner, PartnerIntegration, PayoutRouting } from "./partnerStore";
export type { ProductionRequest } from "./productionAccess";
export { remainingOf } from "./rateWindow";
export {
  REQUEST_LOG_RETENTION,
  type RequestLogEntry,
  type RequestLogLine,
  type UsageRow,
} from "./requestLog";
export { PARTNER_SCOPES } from "./scopes";
export { type ShareStatus, type Split, shareStatusOf } from "./shareStatus";

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

export interface RotatedSandboxKey extends IssuedSandboxKey {
  revokedKeyId: string;
}

/** Partner mail: the transport and the base URL the mailed commands name. */
export interface PartnerMailOptions {
  mailer: Mailer;
  publicUrl: string;
}

export interface PartnersService {
  /**
   * A new partner with a sandbox key holding every scope, and the verification mail to its contact; 503 when
   * this service has no master key or no mail, or the mail cannot be sent (then nothing is stored).
   */
  createSandboxKey(signUp: SandboxSignUp): Promise<IssuedSandboxKey>;
  /** A new sandbox key of the caller's partner; the calling key is revoked. Sandbox keys only. */
  rotateSandboxKey(caller: PartnerContext, request: RotationRequest): Promise<RotatedSandboxKey>;
  key(keyId: string): Promise<ApiKeyRecord | undefined>;
  /** The partner's row (contact, environment access, split, integration starts, payout routing). */
  partner(partnerId: string): Promise<Partner | undefined>;
  /** Revokes a key at its holder's request. */
  revokeByHolder(keyId: string): Promise<ApiKeyRecord>;
  requestAccess(input: AccessRequestInput): Promise<AccessRequest>;
  /** Consumes a one-time token; 400 verification_token_invalid for an unknown, used or expired one. */
  verifyEmail(token: string): Promise<{ partnerId: string }>;
  /** Mails the caller's contact a new verification token. */
  resendVerification(caller: PartnerContext): Promise<{ expiresAt: Date }>;
  requestProduction(
    caller: PartnerContext,
    message: string,
  ): Promise<{ request: ProductionRequest; created: boolean }>;
  /** Queues the log line and usage count of an answered keyed request (written in batches). */
  recordRequest(entry: RequestLogEntry): void;
  /** Writes every queued log line and count (or counts it lost): a process that stops calls it last. */
  drainRequestLog(): Promise<void>;
  recentRequests(caller: PartnerContext, limit: number): Promise<RequestLogLine[]>;
  usage(caller: PartnerContext, days: number): Promise<UsageRow[]>;
}

export interface PartnersOptions {
  pool: Pool;
  box: SecretBox | undefined;
  mail: PartnerMailOptions | undefined;
  now: () => number;
  log: (line: string) => void;
  recorder?: RecorderOptions | undefined;
}

export function partnersService(options: PartnersOptions): PartnersService {
  const { pool, box, mail, now, log } = options;
  const recorder = requestRecorder(pool, log, options.recorder ?? DEFAULT_RECORDER_OPTIONS);

  function sealer(): (signingSecret: string) => (keyId: string) => string {
    if (box === undefined) {
      throw new ApiError(
        "service_unavailable",
        "This API runs without a master key, so it cannot issue signing secrets.",
      );
    }
    return (signingSecret) => (keyId) => sealSandboxSigningSecret(box, keyId, signingSecret);
  }

  function mailOptions(): PartnerMailOptions {
    if (mail === undefined) {
      throw new ApiError(
        "mail_unavailable",
        "This API runs without a mail transport, so it cannot mail partners.",
      );
    }
    return mail;
  }

  async function sendOrRefuse(send: () => Promise<unknown>): Promise<void> {
    try {
      await send();
    } catch (error) {
      log(`partner mail failed: ${(error as Error).message}`);
      throw new ApiError("mail_unavailable");
    }
  }

  return {
    async createSandboxKey(signUp) {
      const seal = sealer();
      const { mailer, publicUrl } = mailOptions();
      const signingSecret = newSandboxSigningSecret();
      // The mail goes out inside the transaction that stores key, partner and token: a mail that cannot be
      // sent rolls them back, so a partner never holds a key whose contact can never be verified.
      return withTransaction(pool, async (client) => {
        const { record, issued } = await createApiKey(client, {
          environment: "sandbox",
          scopes: PARTNER_SCOPES,
          rateLimitPerMinute: 60,
          label: signUp.label ?? "",
          organization: signUp.organization,
          email: signUp.email,
          createdBy: "self-serve",
          sealSigningSecret: seal(signingSecret),
        });
        const token = await issueVerificationToken(client, record.partnerId, signUp.email, new Date(now()));
        await sendOrRefuse(() =>
          mailer.send(
            verificationMail({
              to: signUp.email,
              organization: signUp.organization,
              partnerId: record.partnerId,
              token: token.token,
              expiresAt: token.expiresAt,
              publicUrl,
            }),
          ),
        );
        return { apiKey: issued.secret, signingSecret, record };
      });
    },
    async rotateSandboxKey(caller, request) {
      const seal = sealer();
      const signingSecret = newSandboxSigningSecret();
      const rotation = await rotateSandboxKey(pool, caller, request, seal(signingSecret));
      // The rotation stands whether or not its notice arrives; the notice goes to the verified contact.
      if (mail !== undefined && rotation.partner.contactEmail !== null) {
        await mail.mailer
          .send(
            rotationMail({
              to: rotation.partner.contactEmail,
              partnerId: caller.partnerId,
              oldKeyId: rotation.revokedKeyId,
              newKeyId: rotation.record.keyId,
              at: rotation.record.createdAt,
            }),
          )
          .catch((error: Error) => log(`rotation notice for ${caller.partnerId} not sent: ${error.message}`));
      }
      return {
        apiKey: rotation.issued.secret,
        signingSecret,
        record: rotation.record,
        revokedKeyId: rotation.revokedKeyId,
      };
    },
    key: (keyId) => findApiKey(pool, keyId),
    partner: (partnerId) => findPartner(pool, partnerId),
    revokeByHolder: (keyId) =>
      revokeApiKey(pool, keyId, {
        actor: `key:${keyId}`,
        reason: "revoked by its holder (DELETE /v1/sandbox/keys)",
      }),
    requestAccess: (input) => recordAccessRequest(pool, input, new Date(now())),
    async verifyEmail(token) {
      const { partnerId } = await consumeVerificationToken(pool, token, new Date(now()));
      return { partnerId };
    },
    async resendVerification(caller) {
      const { mailer, publicUrl } = mailOptions();
      const partner = await findPartner(pool, caller.partnerId);
      if (partner?.contactEmail == null) {
        throw new ApiError(
          "invalid_request",
          "This partner has no contact email to verify; ask an operator.",
        );
      }
      const contact = partner.contactEmail;
      return withTransaction(pool, async (client) => {
        const token = await issueVerificationToken(client, partner.partnerId, contact, new Date(now()));
        await sendOrRefuse(() =>
          mailer.send(
            verificationMail({
              to: contact,
              organization: partner.organization,
              partnerId: partner.partnerId,
              token: token.token,
              expiresAt: token.expiresAt,
              publicUrl,
            }),
          ),
        );
        return { expiresAt: token.expiresAt };
      });
    },
    requestProduction: (caller, message) => requestProduction(pool, caller, message, new Date(now())),
    recordRequest: (entry) => recorder.record(entry),
    drainRequestLog: () => recorder.drain(),
    recentRequests: (caller, limit) => recentRequests(pool, caller.keyId, limit),
    usage: (caller, days) => usageOf(pool, caller.keyId, days, now()),
  };
}
