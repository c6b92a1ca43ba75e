// Self-serve sandbox keys: create (raw key and signing secret shown once), introspect and revoke the calling key.
import { z } from "zod";
import { ApiError } from "../../core/errors/catalogue";
import { PARTNER_SCOPES, type PartnerContext, remainingOf } from "../../services/partners";
import type { Platform } from "../platform/platform";

const createBody = z.strictObject({
  organization: z.string().trim().min(1).max(200),
  email: z.email().max(254),
  label: z.string().trim().max(100).optional(),
});

const scopesSchema = z.array(z.enum(PARTNER_SCOPES));

const createdSchema = z.object({
  apiKey: z.string().describe("Shown once; store it server-side."),
  signingSecret: z.string().describe("Shown once."),
  environment: z.literal("sandbox"),
  keyId: z.string(),
  partnerId: z.string(),
  scopes: scopesSchema,
  rateLimitPerMinute: z.number(),
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
  createdAt: z.string(),
});

export function registerSandboxKeyRoutes({ routes, services }: Platform): void {
  routes.route(
    {
      method: "post",
      path: "/v1/sandbox/keys",
      summary: "Create a sandbox key (self-serve). The raw key and signing secret are shown once.",
      tag: "Sandbox",
      access: "optional-key",
      // It hands out a key, and a key never belongs in a web page: no CORS.
      cors: "none",
      body: createBody,
      responses: { 201: { description: "The new sandbox key.", schema: createdSchema } },
      errors: ["sandbox_only", "service_unavailable"],
    },
    async ({ body, res }) => {
      if (res.locals.hostClass === "production") {
        throw new ApiError("sandbox_only", "Create sandbox keys on the sandbox or canonical host.");
      }
      const { apiKey, signingSecret, record } = await services.partners.createSandboxKey(body);
      res.status(201).json({
        apiKey,
        signingSecret,
        environment: "sandbox",
        keyId: record.keyId,
        partnerId: record.partnerId,
        scopes: record.scopes,
        rateLimitPerMinute: record.rateLimitPerMinute,
      });
    },
  );

  routes.route(
    {
      method: "get",
      path: "/v1/sandbox/keys",
      summary: "Introspect the calling sandbox key: scopes, limits, usage this minute, emailVerified.",
      tag: "Sandbox",
      access: "partner",
      responses: { 200: { description: "The calling key.", schema: introspectionSchema } },
      errors: ["sandbox_only"],
    },
    async ({ res }) => {
      const partner = sandboxPartner(res.locals.partner);
      const [key, profile] = await Promise.all([
        services.partners.key(partner.keyId),
        services.partners.partner(partner.partnerId),
      ]);
      const rate = res.locals.rateLimit;
      if (key === undefined || profile === undefined || rate === undefined)
        throw new ApiError("unauthorized");
      res.json({
        keyId: key.keyId,
        partnerId: key.partnerId,
        environment: "sandbox",
        label: key.label,
        organization: profile.organization,
        emailVerified: profile.emailVerified,
        scopes: key.scopes,
        limits: { requestsPerMinute: key.rateLimitPerMinute },
        usage: { requestsThisMinute: rate.count, remainingThisMinute: remainingOf(rate) },
        createdAt: key.createdAt.toISOString(),
      });
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
    async ({ res }) => {
      const partner = sandboxPartner(res.locals.partner);
      const key = await services.partners.revokeByHolder(partner.keyId);
      res.json({ keyId: key.keyId, revoked: true, revokedAt: (key.revokedAt ?? new Date()).toISOString() });
    },
  );
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
