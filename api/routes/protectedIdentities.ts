// GET /v1/protected-identities: production protection records newest first, keyset-paginated (see
// services/mirror/protectedRows.ts for what each source contributes).
import { z } from "zod";
import { ApiError } from "../../core/errors/catalogue";
import { foldV1 } from "../../core/fold";
import { lookalikeText } from "../../core/lookalike";
import {
  type MirrorService,
  type PageCursor,
  PROTECTION_SOURCES,
  PROTECTION_STATUSES,
  type ProtectionRow,
  type ProtectionStatus,
} from "../../services/mirror";
import type { Platform } from "../platform/platform";

export const PAGE_SIZE_MAX = 50;
const PAGE_SIZE_DEFAULT = 20;
/** `active` is reserved, protected or blocked; `all` adds expired, launched and cleared. */
const STATUS_FILTERS: Record<string, readonly ProtectionStatus[]> = {
  active: ["reserved", "protected", "blocked"],
  all: PROTECTION_STATUSES,
  ...Object.fromEntries(PROTECTION_STATUSES.map((status) => [status, [status]])),
};

/** The values `status` accepts. */
export const PROTECTION_STATUS_FILTERS = Object.keys(STATUS_FILTERS) as [string, ...string[]];

export const protectedIdentitiesQuery = z.object({
  q: z
    .string()
    .max(200)
    .optional()
    .describe(
      "Filter: the identity key contains this text, folded the same way, or the identity looks like it (its look-alike key contains the text's look-alike form; such rows have `lookalike: true`).",
    ),
  chain: z.string().max(64).optional().describe("Only this chain (see GET /v1/chains)."),
  status: z
    .enum(PROTECTION_STATUS_FILTERS)
    .default("active")
    .describe("active (default: reserved, protected or blocked), all, or one status."),
  cursor: z.string().max(512).optional().describe("The nextCursor of the previous page."),
  limit: z.coerce.number().int().min(1).max(PAGE_SIZE_MAX).default(PAGE_SIZE_DEFAULT),
});

const rowSchema = z.object({
  identityKey: z.string(),
  chain: z.string().nullable().describe("Null for a guardian block on every chain."),
  status: z.enum(PROTECTION_STATUSES),
  source: z.enum(PROTECTION_SOURCES).describe("reservation (on-chain), lock, guardian or launch."),
  authorizedLauncher: z.string().nullable(),
  since: z.string(),
  protectedUntil: z.string().nullable().describe("Null for launches and permanent guardian blocks."),
  launchpad: z
    .string()
    .nullable()
    .describe("The launchpad that settled an embedded reservation, or reported the lock or launch."),
  lookalike: z
    .boolean()
    .describe(
      "True when the row matched `q` only as a look-alike (docs/lookalikes.md): its key does not contain the folded `q`.",
    ),
});

const pageSchema = z.object({ rows: z.array(rowSchema), nextCursor: z.string().nullable() });

export type ProtectedIdentitiesPage = z.infer<typeof pageSchema>;

function encodeCursor(row: ProtectionRow): string {
  const cursor: PageCursor = { since: row.since_key, source: row.source, sourceId: row.source_id };
  return Buffer.from(JSON.stringify(cursor)).toString("base64url");
}

/** The instant a cursor carries: ISO 8601 in UTC, to the microsecond (the database reads it back exactly). */
const CURSOR_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$/;

function decodeCursor(text: string): PageCursor {
  try {
    const value = JSON.parse(Buffer.from(text, "base64url").toString("utf8")) as PageCursor;
    if (
      typeof value.source === "string" &&
      typeof value.sourceId === "string" &&
      typeof value.since === "string" &&
      CURSOR_INSTANT.test(value.since) &&
      !Number.isNaN(Date.parse(value.since))
    ) {
      return value;
    }
  } catch {
    // fall through to the error below
  }
  throw new ApiError(
    "invalid_request",
    "`cursor` is not a cursor this API issued; pass nextCursor unchanged.",
    {
      in: "query",
      issues: [{ path: "cursor", message: "unknown cursor" }],
    },
  );
}

/**
 * `q` as the folded text the key contains, or the look-alike form the look-alike key contains. A text that
 * folds to nothing but has a look-alike form (Greek `ΡΕΡΕ`) is searched by look-alike only.
 */
function textFilter(q: string | undefined): { contains?: string; lookalikeContains?: string } {
  if (q === undefined) return {};
  const folded = foldV1(q);
  const lookalike = lookalikeText(q);
  if (lookalike === "") return { contains: folded };
  return folded === ""
    ? { lookalikeContains: lookalike }
    : { contains: folded, lookalikeContains: lookalike };
}

/** One page of the list as the endpoint answers it (the public web page shows the same). */
export async function protectedIdentitiesPage(
  mirror: MirrorService,
  input: z.output<typeof protectedIdentitiesQuery>,
): Promise<ProtectedIdentitiesPage> {
  const rows = await mirror.protectionPage({
    ...textFilter(input.q),
    chain: input.chain,
    statuses: STATUS_FILTERS[input.status] ?? [],
    after: input.cursor === undefined ? undefined : decodeCursor(input.cursor),
    limit: input.limit,
  });
  const shown = rows.slice(0, input.limit);
  return {
    rows: shown.map((row) => ({
      identityKey: row.identity_key,
      chain: row.chain,
      status: row.status,
      source: row.source,
      authorizedLauncher: row.authorized_launcher,
      since: row.since.toISOString(),
      protectedUntil: row.until?.toISOString() ?? null,
      launchpad: row.launchpad,
      lookalike: row.lookalike,
    })),
    nextCursor: rows.length > input.limit ? encodeCursor(shown[shown.length - 1] as ProtectionRow) : null,
  };
}

export function registerProtectedIdentityRoutes({ routes, services }: Platform): void {
  routes.route(
    {
      method: "get",
      path: "/v1/protected-identities",
      summary: "Production protection records, newest first (cursor pagination, limit <= 50).",
      tag: "Public data",
      access: "public",
      query: protectedIdentitiesQuery,
      responses: {
        200: {
          description: "One page of rows and the cursor of the next (null on the last page).",
          schema: pageSchema,
        },
      },
    },
    async ({ query: input }) => {
      return { status: 200, body: await protectedIdentitiesPage(services.mirror, input) };
    },
  );
}
