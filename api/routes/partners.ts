// Partner onboarding: the public access request and email verification, and with a key the verification
// resend and the production request. Operators list and answer requests with the operator CLI (partners:*).
import { z } from "zod";
import type { Platform } from "../platform/platform";

const requestBody = z.strictObject({
  organization: z.string().trim().min(1).max(200),
  email: z.email().max(254),
  intendedUse: z.string().trim().min(1).max(2000).describe("What you will use the service for."),
});

const requestedSchema = z.object({
  requestId: z.string(),
  status: z.literal("open"),
  createdAt: z.string(),
  next: z.string(),
});

const verifyBody = z.strictObject({
  token: z.string().min(1).max(200).describe("The one-time token from the verification mail."),
});

const productionBody = z.strictObject({
  message: z
    .string()
    .trim()
    .max(2000)
    .optional()
    .describe("What you launch, expected volume, anything operators should know."),
});

const productionSchema = z.object({
  requestId: z.string(),
  partnerId: z.string(),
  status: z.enum(["open", "granted", "declined"]),
  createdAt: z.string(),
});

export function registerPartnerRoutes({ routes, services }: Platform): void {
  routes.route(
    {
      method: "post",
      path: "/v1/partners/request",
      summary: "Request partner access (public): stored and listed for operators, who answer by email.",
      tag: "Partners",
      // Keyless and it stores a row: counted per client address like the other keyless writes.
      access: "public-write",
      body: requestBody,
      responses: { 201: { description: "The request is recorded.", schema: requestedSchema } },
    },
    async ({ body }) => {
      const request = await services.partners.requestAccess(body);
      return {
        status: 201,
        body: {
          requestId: request.requestId,
          status: "open",
          createdAt: request.createdAt.toISOString(),
          next: "Operators review requests and answer by email. Meanwhile, create a sandbox key: POST /v1/sandbox/keys.",
        },
      };
    },
  );

  routes.route(
    {
      method: "post",
      path: "/v1/partners/verify-email",
      summary:
        "Verify a contact email with the one-time token mailed to it (single use, expires after 24 hours).",
      tag: "Partners",
      access: "public",
      // Nothing a page may do with it: a token belongs to the mailbox owner, not to a site.
      cors: "none",
      body: verifyBody,
      responses: {
        200: {
          description: "The contact email is verified.",
          schema: z.object({ partnerId: z.string(), emailVerified: z.literal(true) }),
        },
      },
      errors: ["verification_token_invalid"],
    },
    async ({ body }) => {
      const { partnerId } = await services.partners.verifyEmail(body.token);
      return { status: 200, body: { partnerId, emailVerified: true } };
    },
  );

  routes.route(
    {
      method: "post",
      path: "/v1/partners/verify-email/resend",
      summary: "Mail a new verification token to the calling key's partner contact.",
      tag: "Partners",
      access: "partner",
      responses: {
        202: {
          description: "The mail is sent.",
          schema: z.object({ sent: z.literal(true), expiresAt: z.string() }),
        },
      },
      errors: ["mail_unavailable"],
    },
    async ({ partner }) => {
      const { expiresAt } = await services.partners.resendVerification(partner);
      return { status: 202, body: { sent: true, expiresAt: expiresAt.toISOString() } };
    },
  );

  routes.route(
    {
      method: "post",
      path: "/v1/partners/production-request",
      summary:
        "Ask for production access (needs a verified contact email). Recorded for operators; asking again while a request is open answers that one.",
      tag: "Partners",
      access: "partner",
      body: productionBody,
      responses: {
        201: { description: "The request is recorded.", schema: productionSchema },
        200: { description: "A request of this partner is already open.", schema: productionSchema },
      },
      errors: ["email_not_verified", "forbidden"],
    },
    async ({ body, partner }) => {
      const caller = partner;
      const { request, created } = await services.partners.requestProduction(caller, body.message ?? "");
      return {
        status: created ? 201 : 200,
        body: {
          requestId: request.requestId,
          partnerId: request.partnerId,
          status: request.status,
          createdAt: request.createdAt.toISOString(),
        },
      };
    },
  );
}
