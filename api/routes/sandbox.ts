// The sandbox's own routes: self-serve sandbox keys (create, with the raw key and signing secret shown once;
// rotate with X-Service-Rotate: 1; introspect and revoke the calling key), the calling key's diagnostics (recent
// request logs, usage per day and route) under /v1/sandbox/, and the sandbox hold (POST /v1/reservations).
import { z } from "zod";
import { ApiError } from "../../core/errors/catalogue";
import {
  PARTNER_SCOPES,
  type PartnerContext,
  REQUEST_LOG_RETENTION,
  remainingOf,
  shareStatusOf,
} from "../../services/partners";
import type { Platform } from "../platform/platform";
import { sandboxHoldBody, sandboxHoldSchema } from "./identitySchemas";
import { shareStatusJson, shareStatusSchema } from "./shareStatusSchema";

const ROTATE_HEADER = "x-service-rotate";

const createBody = z.strictObject({
  organization: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .optional()
    .describe("Required to create a key; not sent on rotation (the partner keeps its organization)."),
  email: z.email().max(254).describe("The contact to verify; on rotation, the key's verified contact email."),
  label: z.string().trim().max(100).optional(),
});

const scopesSchema = z.array(z.enum(PARTNER_SCOPES));

const createdSchema = z.object({
  apiKey: z.string().describe("Shown once; store it server-side."),
  signingSecret: z
    .string()
    .describe(
      "Shown once. Signs the sandbox's webhook deliveries to this partner (an extra X-Service-Signature v1), so any of its sandbox endpoints verifies with it.",
    ),
  environment: z.literal("sandbox"),
  keyId: z.string(),
  partnerId: z.string(),
  scopes: scopesSchema,
  rateLimitPerMinute: z.number(),
  revokedKeyId: z.string().optional().describe("On rotation: the calling key, now revoked."),
});

const introspectionSchema = z.object({
  keyId: z.string(),
  partnerId: z.string(),
  environment: z.literal("sandbox"),
  label: z.string(),
  organization: z.string().nullable(),
  emailVerified: z.boolean(),
  scopes: scopesSchema,
  limits: z.object({ requestsPerMinute: z.number() }),
  usage: z.object({ requestsThisMinute: z.number(), remainingThisMinute: z.number() }),
  revenueShare: shareStatusSchema.describe("The partner's share terms in the sandbox, as in effect now."),
  createdAt: z.string(),
});

const logsQuery = z.strictObject({
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(REQUEST_LOG_RETENTION.perKey)
    .default(100)
    .describe(`Lines to return, newest first; at most ${REQUEST_LOG_RETENTION.perKey}.`),
});

const logsSchema = z.object({
  keyId: z.string(),
  retention: z.object({ perKey: z.number(), days: z.number() }),
  requests: z.array(
    z.object({
      method: z.string(),
      path: z.string().describe("Without the query string."),
      status: z.number(),
      latencyMs: z.number(),
      requestId: z.string().describe("The X-Request-Id the response carried."),
      at: z.string(),
    }),
  ),
});

const usageQuery = z.strictObject({
  days: z.coerce.number().int().min(1).max(30).default(7).describe("UTC days back, today included."),
});

const usageSchema = z.object({
  keyId: z.string(),
  days: z.number(),
  totals: z.object({ requests: z.number(), rateLimited: z.number() }),
  usage: z.array(
    z.object({
      day: z.string(),
      route: z.string(),
      requests: z.number(),
      rateLimited: z.number().describe("Of them answered 429."),
    }),
  ),
});

export function registerSandboxKeyRoutes({ routes, services, now }: Platform): void {
  routes.route(
    {
      method: "post",
      path: "/v1/sandbox/keys",
      summary:
        "Create a sandbox key (self-serve; a verification mail goes to `email`), or with X-Service-Rotate: 1 and the key, rotate it. The raw key and signing secret are shown once.",
      tag: "Sandbox",
      access: "keyless",
      // It hands out a key, and a key never belongs in a web page: no CORS.
      cors: "none",
      body: createBody,
      headers: {
        "X-Service-Rotate":
          "1: rotate the calling sandbox key (send it as the Bearer key, and its verified contact as `email`): a new key of the same partner, the old one revoked.",
      },
      responses: { 201: { description: "The new sandbox key.", schema: createdSchema } },
      errors: [
        "sandbox_only",
        "service_unavailable",
        "mail_unavailable",
        "email_mismatch",
        "email_not_verified",
        "rotation_not_allowed",
      ],
    },
    async ({ body, hostClass, partner: caller, headers }) => {
      if (hostClass === "production") {
        throw new ApiError("sandbox_only", "Create sandbox keys on the sandbox or canonical host.");
      }
      const partner = rotatingCaller(headers[ROTATE_HEADER], caller, body);
      if (partner !== undefined) {
        const rotated = await services.partners.rotateSandboxKey(partner, {
          email: body.email,
          label: body.label,
        });
        return {
          status: 201,
          body: {
            apiKey: rotated.apiKey,
            signingSecret: rotated.signingSecret,
            environment: "sandbox",
            keyId: rotated.record.keyId,
            partnerId: rotated.record.partnerId,
            scopes: rotated.record.scopes,
            rateLimitPerMinute: rotated.record.rateLimitPerMinute,
            revokedKeyId: rotated.revokedKeyId,
          },
        };
      }
      if (body.organization === undefined) {
        throw new ApiError(
          "invalid_request",
          "The request body is invalid: organization: required to create a key.",
          {
            in: "body",
            issues: [{ path: "organization", message: "required to create a key" }],
          },
        );
      }
      const { apiKey, signingSecret, record } = await services.partners.createSandboxKey({
        organization: body.organization,
        email: body.email,
        label: body.label,
      });
      return {
        status: 201,
        body: {
          apiKey,
          signingSecret,
          environment: "sandbox",
          keyId: record.keyId,
          partnerId: record.partnerId,
          scopes: record.scopes,
          rateLimitPerMinute: record.rateLimitPerMinute,
        },
      };
    },
  );

  routes.route(
    {
      method: "get",
      path: "/v1/sandbox/keys",
      summary:
        "Introspect the calling sandbox key: scopes, limits, usage this minute, emailVerified, the partner's revenue share terms.",
      tag: "Sandbox",
      access: "partner",
      responses: { 200: { description: "The calling key.", schema: introspectionSchema } },
      errors: ["sandbox_only"],
    },
    async ({ partner: caller, rate }) => {
      const partner = sandboxPartner(caller);
      const [key, profile] = await Promise.all([
        services.partners.key(partner.keyId),
        services.partners.partner(partner.partnerId),
      ]);
      if (key === undefined || profile === undefined || rate === undefined)
        throw new ApiError("unauthorized");
      return {
        status: 200,
        body: {
          keyId: key.keyId,
          partnerId: key.partnerId,
          environment: "sandbox",
          label: key.label,
          organization: profile.organization,
          emailVerified: profile.emailVerified,
          scopes: key.scopes,
          limits: { requestsPerMinute: key.rateLimitPerMinute },
          usage: { requestsThisMinute: rate.count, remainingThisMinute: remainingOf(rate) },
          revenueShare: shareStatusJson(shareStatusOf(profile, "sandbox", new Date(now()))),
          createdAt: key.createdAt.toISOString(),
        },
      };
    },
  );
  routes.route(
    {
      method: "delete",
      path: "/v1/sandbox/keys",
      summary: "Revoke the calling sandbox key; it is refused (key_revoked) from the next request on.",
      tag: "Sandbox",
      access: "partner",
      responses: {
        200: {
          description: "The key is revoked.",
          schema: z.object({ keyId: z.string(), revoked: z.literal(true), revokedAt: z.string() }),
        },
      },
      errors: ["sandbox_only"],
    },
    async ({ partner: caller }) => {
      const partner = sandboxPartner(caller);
      const key = await services.partners.revokeByHolder(partner.keyId);
      return {
        status: 200,
        body: { keyId: key.keyId, revoked: true, revokedAt: (key.revokedAt ?? new Date()).toISOString() },
      };
    },
  );
}

export function registerDiagnosticsRoutes({ routes, services }: Platform): void {
  routes.route(
    {
      method: "get",
      path: "/v1/sandbox/logs",
      summary: `The calling key's recent requests, newest first (method, path, status, latency, request id, time; never keys or bodies). Kept: the last ${REQUEST_LOG_RETENTION.perKey} of ${REQUEST_LOG_RETENTION.days} days.`,
      tag: "Sandbox",
      access: "partner",
      query: logsQuery,
      responses: { 200: { description: "The calling key's recent requests.", schema: logsSchema } },
    },
    async ({ query, partner }) => {
      const lines = await services.partners.recentRequests(partner, query.limit);
      return {
        status: 200,
        body: {
          keyId: partner.keyId,
          retention: REQUEST_LOG_RETENTION,
          requests: lines.map((line) => ({ ...line, at: line.at.toISOString() })),
        },
      };
    },
  );
  routes.route(
    {
      method: "get",
      path: "/v1/sandbox/usage",
      summary: "The calling key's requests per UTC day and route, with how many were answered 429.",
      tag: "Sandbox",
      access: "partner",
      query: usageQuery,
      responses: { 200: { description: "The calling key's usage.", schema: usageSchema } },
    },
    async ({ query, partner }) => {
      const usage = await services.partners.usage(partner, query.days);
      return {
        status: 200,
        body: {
          keyId: partner.keyId,
          days: query.days,
          totals: {
            requests: usage.reduce((sum, row) => sum + row.requests, 0),
            rateLimited: usage.reduce((sum, row) => sum + row.rateLimited, 0),
          },
          usage,
        },
      };
    },
  );
}

/**
 * The sandbox key to rotate when the request asks for rotation (X-Service-Rotate: 1), undefined for a plain
 * creation; a rotation without a key, of a production key or changing the organization is refused.
 */
function rotatingCaller(
  header: string | string[] | undefined,
  partner: PartnerContext | undefined,
  body: { organization?: string | undefined },
): PartnerContext | undefined {
  if (header === undefined) return undefined;
  if (header !== "1") {
    throw new ApiError("invalid_request", "X-Service-Rotate must be 1 (or absent to create a key).");
  }
  if (partner === undefined) {
    throw new ApiError(
      "unauthorized",
      "Rotation needs the key to rotate: send it as `Authorization: Bearer <API_KEY>`.",
    );
  }
  if (partner.environment !== "sandbox") throw new ApiError("rotation_not_allowed");
  if (body.organization !== undefined) {
    throw new ApiError(
      "invalid_request",
      "Rotation keeps the partner's organization: send only email and label.",
    );
  }
  return partner;
}

/** The authenticated caller, which must hold a sandbox key. */
function sandboxPartner(partner: PartnerContext | undefined): PartnerContext {
  if (partner === undefined) throw new ApiError("unauthorized");
  if (partner.environment !== "sandbox") {
    throw new ApiError(
      "sandbox_only",
      "Only sandbox keys can be managed here; operators manage production keys.",
    );
  }
  return partner;
}

/** POST /v1/reservations: a sandbox hold, seeded for the calling sandbox partner (sandbox only). */
export function registerSandboxHoldRoutes({ routes, services }: Platform): void {
  routes.route(
    {
      method: "post",
      path: "/v1/reservations",
      summary: "Sandbox only: seed a confirmed sandbox hold for a pair (never a production hold).",
      tag: "Decisions",
      access: { scope: "reservation:prepare" },
      body: sandboxHoldBody,
      responses: { 201: { description: "The seeded sandbox hold.", schema: sandboxHoldSchema } },
      errors: [
        "unauthorized",
        "scope_missing",
        "sandbox_only",
        "identity_held",
        "rate_limited",
        "service_unavailable",
      ],
    },
    async ({ body, partner }) => {
      return { status: 201, body: await services.sandbox.hold(partner, body) };
    },
  );
}
