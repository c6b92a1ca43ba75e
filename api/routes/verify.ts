// POST /v1/decisions/verify: the server-side verifier over the published keys. Verification reasons are
// results (200), not HTTP errors.
import { z } from "zod";
import { type Environment, isEnvironment } from "../../core/environment";
import type { HostClass } from "../platform/hosts";
import type { Platform } from "../platform/platform";

const optionalString = z.string().optional();
const decisionBody = z
  .looseObject({
    version: optionalString,
    requestId: optionalString,
    identityKey: optionalString,
    normalizedName: optionalString,
    normalizedTicker: optionalString,
    chain: optionalString,
    launchpadId: optionalString,
    launcher: optionalString,
    decision: optionalString,
    reason: optionalString,
    issuedAt: optionalString,
    expiresAt: optionalString,
    nonce: optionalString,
    environment: optionalString,
    signature: optionalString,
    signatureAlg: optionalString,
    keyId: optionalString,
  })
  .describe("A signed validation decision exactly as POST /v1/launches/validate returned it.");

const verifyResult = z.object({
  valid: z.boolean(),
  reason: z
    .string()
    .describe(
      "ok, expired, not_yet_valid, unknown_key, revoked_key, bad_signature, no_signature, malformed, unsupported_version, environment_mismatch",
    ),
});

/** The environment whose keys judge the decision: the host's, or on the canonical host the decision's own. */
function verifyingEnvironment(hostClass: HostClass, claimed: unknown): Environment {
  if (hostClass !== "canonical") return hostClass;
  return isEnvironment(claimed) ? claimed : "production";
}

export function registerVerifyRoutes({ routes, services }: Platform): void {
  routes.route(
    {
      method: "post",
      path: "/v1/decisions/verify",
      summary:
        "Verify a signed decision: signature, key status, freshness (30 s skew) and environment. Only `valid: true` allows a launch.",
      tag: "Public data",
      access: "public",
      body: decisionBody,
      responses: { 200: { description: "The verification result.", schema: verifyResult } },
      errors: ["service_unavailable"],
    },
    async ({ body, hostClass }) => {
      const environment = verifyingEnvironment(hostClass, body.environment);
      return { status: 200, body: await services.signing.verify(body, environment) };
    },
  );
}
