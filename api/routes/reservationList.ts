// GET /v1/reservations?wallet=: a wallet's on-chain reservations (production data only).
import { z } from "zod";
import { ApiError } from "../../core/errors/catalogue";
import type { Platform } from "../platform/platform";

const WALLET_PATTERN = /^[A-Za-z0-9]{3,64}$/;

const query = z.object({
  wallet: z
    .string()
    .regex(WALLET_PATTERN)
    .describe("Wallet: 3-64 plain alphanumerics. EVM addresses match case-insensitively, Solana exactly."),
});

const recordSchema = z.object({
  chain: z.string(),
  identityKey: z.string(),
  normalizedName: z.string(),
  normalizedTicker: z.string(),
  status: z.enum(["confirmed", "expired"]),
  launcher: z.string(),
  reservedAt: z.string(),
  expiresAt: z.string(),
  durationSeconds: z.number(),
  transactionHash: z.string(),
  blockNumber: z.number(),
});

const listSchema = z.object({
  adapter: z.literal("index"),
  scope: z.literal("production"),
  wallet: z.string(),
  summary: z.object({ total: z.number(), active: z.number(), expired: z.number() }),
  records: z.array(recordSchema),
});

export function registerReservationListRoutes({ routes, services, now }: Platform): void {
  routes.route(
    {
      method: "get",
      path: "/v1/reservations",
      summary: "A wallet's confirmed on-chain reservations, newest first (production data only).",
      tag: "Public data",
      access: "public",
      query,
      responses: { 200: { description: "The wallet's reservations.", schema: listSchema } },
      errors: ["wallet_required", "invalid_wallet"],
      invalidInput: (_where, issues, value) => {
        if (!issues.some((issue) => issue.path === "wallet")) return undefined;
        const wallet = (value as { wallet?: unknown }).wallet;
        return wallet === undefined || wallet === ""
          ? new ApiError("wallet_required")
          : new ApiError("invalid_wallet");
      },
    },
    async ({ query: input }) => {
      const at = new Date(now());
      const rows = await services.mirror.walletReservations(input.wallet);
      const records = rows.map((row) => ({
        chain: row.chain,
        identityKey: `${row.normalized_name}::${row.normalized_ticker}`,
        normalizedName: row.normalized_name,
        normalizedTicker: row.normalized_ticker,
        status: row.expires_at > at ? ("confirmed" as const) : ("expired" as const),
        launcher: row.launcher,
        reservedAt: row.reserved_at.toISOString(),
        expiresAt: row.expires_at.toISOString(),
        durationSeconds: row.duration_seconds,
        transactionHash: row.tx_hash,
        blockNumber: Number(row.block_number),
      }));
      const active = records.filter((record) => record.status === "confirmed").length;
      return {
        status: 200,
        body: {
          adapter: "index",
          scope: "production",
          wallet: input.wallet,
          summary: { total: records.length, active, expired: records.length - active },
          records,
        },
      };
    },
  );
}
