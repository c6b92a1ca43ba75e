// The partner's share terms as in effect now, as the partner profile and key introspection show them (one
// schema, so the OpenAPI document describes both the same way).
import { z } from "zod";
import type { ShareStatus } from "../../services/partners";

const splitSchema = z.object({ partnerBps: z.number().int(), serviceBps: z.number().int() });

export const shareStatusSchema = z.object({
  split: splitSchema.describe(
    "The partner's split once its introductory period is over, in basis points (operators may change it).",
  ),
  introductoryPeriod: z
    .object({
      days: z
        .number()
        .int()
        .describe("Its length per environment from the integration start (30 unless changed; 0: none)."),
      startedAt: z.string().nullable().describe("This environment's integration start; null without one."),
      endsAt: z.string().nullable(),
      active: z.boolean().describe("While active the partner share of new reservations is 0 bps."),
    })
    .describe("As in effect now: a change by an operator shows at once."),
  currentShare: splitSchema.describe(
    "The split a reservation prepared now snapshots; earlier prepares keep their own snapshot.",
  ),
});

const iso = (value: Date | null) => (value === null ? null : value.toISOString());

export function shareStatusJson(status: ShareStatus): z.infer<typeof shareStatusSchema> {
  return {
    split: status.split,
    introductoryPeriod: {
      ...status.introductoryPeriod,
      startedAt: iso(status.introductoryPeriod.startedAt),
      endsAt: iso(status.introductoryPeriod.endsAt),
    },
    currentShare: status.currentShare,
  };
}
