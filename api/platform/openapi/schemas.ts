// Response schemas shared by several routes (documentation and conformance tests read them).
import { z } from "zod";

export const chainHealthSchema = z.object({
  chain: z.string(),
  family: z.enum(["evm", "solana"]),
  status: z.enum(["ok", "stale", "not_started"]),
  headNumber: z.number().nullable(),
  indexedNumber: z.number().nullable(),
  lag: z.number().nullable(),
  indexedBlockTime: z.string().nullable(),
  indexedAt: z.string().nullable(),
  secondsSinceIndexed: z.number().nullable(),
});

export const environmentSchema = z.enum(["sandbox", "production"]);
