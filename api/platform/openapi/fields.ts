// Request fields several route areas accept, declared once so their rules and documentation agree.
import { z } from "zod";
import { isReservationDuration, RESERVATION_DURATIONS } from "../../../core/reservation";

export const text = (max: number) => z.string().min(1).max(max);

/** Raw names may carry spaces and symbols that fold away; the folded bounds are checked after folding. */
export const rawName = text(256).describe(
  "Token name as typed; folded (normalization v1) to 1-64 characters.",
);
export const rawTicker = text(64).describe("Token ticker as typed; folded to 2-10 characters.");

export const chainName = text(64).describe("Chain name as listed by GET /v1/chains.");

const durationMessage = `must be one of ${RESERVATION_DURATIONS.join(", ")} (24 hours, 3, 7 or 30 days)`;
const durationDescription = "86400, 259200, 604800 or 2592000 (24 hours, 3, 7 or 30 days).";

/** `durationSeconds` in a JSON body: required, one of the four tiers. */
export const durationSecondsBody = z
  .number({ error: `durationSeconds is required and ${durationMessage}` })
  .int()
  .refine(isReservationDuration, { message: durationMessage })
  .describe(durationDescription);

/** `durationSeconds` in a query string. */
export const durationSecondsQuery = z.coerce
  .number({ error: `durationSeconds is required and ${durationMessage}` })
  .int()
  .refine(isReservationDuration, { message: durationMessage })
  .describe(durationDescription);
