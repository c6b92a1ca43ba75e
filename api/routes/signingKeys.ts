// Public decision-signing keys: GET /v1/keys and the well-known document (also at the host root).
import { z } from "zod";
import { SIGNING_KEY_STATUSES } from "../../core/keyring";
import { environmentSchema } from "../platform/openapi/schemas";
import type { Platform } from "../platform/platform";

export const WELL_KNOWN_SIGNING_KEYS_PATH = "/.well-known/service-signing-keys.json";
/** Verifiers cache keys for about 5 minutes (spec: Limits). */
const CACHED = Object.freeze({ "Cache-Control": "public, max-age=300" });

const keysSchema = z.object({
  environment: environmentSchema,
  keys: z.array(
    z.object({
      kid: z.string(),
      environment: environmentSchema,
      status: z.enum(SIGNING_KEY_STATUSES),
      active: z.boolean(),
      publicKeyBase64: z.string(),
      evmAddress: z
        .string()
        .optional()
        .describe(
          "The address of the key's EVM half: EVM launch guards trust EIP-712 launch decisions it signs (docs/onchain-guard.md).",
        ),
    }),
  ),
});

const keysQuery = z.object({
  environment: environmentSchema
    .optional()
    .describe(
      "Key ring to list; defaults to the host's environment (sandbox host: sandbox, else production).",
    ),
});

export function registerSigningKeyRoutes({ routes, services }: Platform): void {
  const description =
    "Signing keys: active first, then retiring (still accepted), then revoked (listed so verifiers answer revoked_key).";
  routes.route(
    {
      method: "get",
      path: "/v1/keys",
      summary:
        "Public keys that sign launch decisions: Ed25519, and the EVM address of each key's EIP-712 half.",
      tag: "Public data",
      access: "public",
      query: keysQuery,
      responses: { 200: { description, schema: keysSchema } },
    },
    async ({ query, environment: hostEnvironment }) => {
      const environment = query.environment ?? hostEnvironment;
      const keys = await services.signing.publicKeys(environment);
      return { status: 200, body: { environment, keys }, headers: CACHED };
    },
  );
  routes.route(
    {
      method: "get",
      path: WELL_KNOWN_SIGNING_KEYS_PATH,
      summary: "The host environment's signing keys as a well-known document (also served at the host root).",
      tag: "Public data",
      access: "public",
      responses: { 200: { description, schema: keysSchema } },
    },
    async ({ environment }) => {
      const keys = await services.signing.publicKeys(environment);
      return { status: 200, body: { environment, keys }, headers: CACHED };
    },
  );
}
