// GET /v1/protected-identities: production identities under protection, newest first, keyset-paginated.
// Rows come from the on-chain read model: a live reservation reads `reserved`, a lapsed one `expired`.
// Ordering is at millisecond precision, the precision the cursor carries.
import type { Pool } from "pg";
import { z } from "zod";
import { ApiError } from "../../core/errors/catalogue";
import { foldV1 } from "../../core/fold";
import type { Platform } from "../platform/platform";
import { RESERVATION_COLUMNS, type ReservationRow } from "../readModel/reservationRows";

export const PAGE_SIZE_MAX = 50;
const PAGE_SIZE_DEFAULT = 20;
const LISTED_STATUSES = ["reserved", "protected", "blocked", "expired", "launched"] as const;
type ListedStatus = (typeof LISTED_STATUSES)[number];
/** `active` is reserved, protected or blocked; `all` adds expired and launched. */
const STATUS_FILTERS: Record<string, readonly ListedStatus[]> = {
  active: ["reserved", "protected", "blocked"],
  all: LISTED_STATUSES,
  ...Object.fromEntries(LISTED_STATUSES.map((status) => [status, [status]])),
};

const query = z.object({
  q: z
    .string()
    .max(200)
    .optional()
    .describe("Filter: folded name or ticker contains this (folded the same way)."),
  chain: z.string().max(64).optional().describe("Only this chain (see GET /v1/chains)."),
  status: z
    .enum(Object.keys(STATUS_FILTERS) as [string, ...string[]])
    .default("active")
    .describe("active (default: reserved, protected or blocked), all, or one status."),
  cursor: z.string().max(512).optional().describe("The nextCursor of the previous page."),
  limit: z.coerce.number().int().min(1).max(PAGE_SIZE_MAX).default(PAGE_SIZE_DEFAULT),
});

const rowSchema = z.object({
  identityKey: z.string(),
  normalizedName: z.string(),
  normalizedTicker: z.string(),
  chain: z.string(),
  status: z.enum(LISTED_STATUSES),
  authorizedLauncher: z.string(),
  reservedAt: z.string(),
  protectedUntil: z.string(),
});

const pageSchema = z.object({ rows: z.array(rowSchema), nextCursor: z.string().nullable() });

interface Cursor {
  reservedAt: string;
  chain: string;
  nameHash: string;
  tickerHash: string;
}

function encodeCursor(row: ReservationRow): string {
  const cursor: Cursor = {
    reservedAt: row.reserved_at.toISOString(),
    chain: row.chain,
    nameHash: row.name_hash,
    tickerHash: row.ticker_hash,
  };
  return Buffer.from(JSON.stringify(cursor)).toString("base64url");
}

function decodeCursor(text: string): Cursor {
  try {
    const value = JSON.parse(Buffer.from(text, "base64url").toString("utf8")) as Cursor;
    if (
      typeof value.chain === "string" &&
      typeof value.nameHash === "string" &&
      typeof value.tickerHash === "string" &&
      !Number.isNaN(Date.parse(value.reservedAt))
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

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}

async function page(
  pool: Pool,
  filter: {
    q?: string;
    chain?: string;
    statuses: readonly ListedStatus[];
    cursor?: Cursor;
    limit: number;
    now: Date;
  },
): Promise<ReservationRow[]> {
  const wantsReserved = filter.statuses.includes("reserved");
  const wantsExpired = filter.statuses.includes("expired");
  if (!wantsReserved && !wantsExpired) return [];
  const folded = filter.q === undefined ? null : `%${escapeLike(foldV1(filter.q))}%`;
  const { rows } = await pool.query<ReservationRow>(
    `SELECT ${RESERVATION_COLUMNS} FROM chain_reservations
     WHERE ($1::text IS NULL OR normalized_name LIKE $1 OR normalized_ticker LIKE $1)
       AND ($2::text IS NULL OR chain = $2)
       AND (($3 AND expires_at > $5) OR ($4 AND expires_at <= $5))
       AND ($6::timestamptz IS NULL OR (date_trunc('milliseconds', reserved_at), chain, name_hash, ticker_hash) < ($6, $7, $8, $9))
     ORDER BY date_trunc('milliseconds', reserved_at) DESC, chain DESC, name_hash DESC, ticker_hash DESC
     LIMIT $10`,
    [
      folded,
      filter.chain ?? null,
      wantsReserved,
      wantsExpired,
      filter.now,
      filter.cursor?.reservedAt ?? null,
      filter.cursor?.chain ?? null,
      filter.cursor?.nameHash ?? null,
      filter.cursor?.tickerHash ?? null,
      filter.limit + 1,
    ],
  );
  return rows;
}

export function registerProtectedIdentityRoutes({ routes, deps, now }: Platform): void {
  routes.route(
    {
      method: "get",
      path: "/v1/protected-identities",
      summary: "Production identities under protection (cursor pagination, limit <= 50).",
      tag: "Public data",
      access: "public",
      query,
      responses: {
        200: {
          description: "One page of rows and the cursor of the next (null on the last page).",
          schema: pageSchema,
        },
      },
    },
    async ({ query: input, res }) => {
      const at = new Date(now());
      const rows = await page(deps.pool, {
        q: input.q,
        chain: input.chain,
        statuses: STATUS_FILTERS[input.status] ?? [],
        cursor: input.cursor === undefined ? undefined : decodeCursor(input.cursor),
        limit: input.limit,
        now: at,
      });
      const shown = rows.slice(0, input.limit);
      res.json({
        rows: shown.map((row) => ({
          identityKey: `${row.normalized_name}::${row.normalized_ticker}`,
          normalizedName: row.normalized_name,
          normalizedTicker: row.normalized_ticker,
          chain: row.chain,
          status: row.expires_at > at ? "reserved" : "expired",
          authorizedLauncher: row.launcher,
          reservedAt: row.reserved_at.toISOString(),
          protectedUntil: row.expires_at.toISOString(),
        })),
        nextCursor:
          rows.length > input.limit ? encodeCursor(shown[shown.length - 1] as ReservationRow) : null,
      });
    },
  );
}
