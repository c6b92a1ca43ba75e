// Group commit for attempt outcomes: outcomes gather while a recording statement is under way, and a batch
// smaller than FULL_BATCH waits up to GATHER_MS for more before its statement (claims.ts recordAttempts). A
// statement's fixed cost (its commit, its round trip, its start in the database) is about that of a dozen
// outcomes' rows, so under load gathering cuts the database's and the worker's work per attempt by about a
// quarter; nothing waits for it but the lease (a sending slot is free once its receiver answered).
import type { Pool } from "pg";
import { type LeasedOutcome, recordAttempts } from "./claims";

/** Outcomes that make a batch worth a statement at once. */
export const FULL_BATCH = 32;
/** How long a smaller batch waits for more outcomes. */
export const GATHER_MS = 3;

export interface OutcomeRecorder {
  /** Resolves true once recorded, false when the lease was lost; rejects when the statement failed. */
  record(outcome: LeasedOutcome): Promise<boolean>;
}

interface Waiting {
  outcome: LeasedOutcome;
  resolve: (recorded: boolean) => void;
  reject: (error: Error) => void;
}

export function outcomeRecorder(pool: Pool): OutcomeRecorder {
  let waiting: Waiting[] = [];
  let recording = false;
  /** Ends the gathering pause early once the batch is full. */
  let full: (() => void) | undefined;

  async function flush(): Promise<void> {
    recording = true;
    while (waiting.length > 0) {
      if (waiting.length < FULL_BATCH) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, GATHER_MS);
          full = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        full = undefined;
      }
      const batch = waiting;
      waiting = [];
      try {
        const recorded = await recordAttempts(
          pool,
          batch.map((entry) => entry.outcome),
        );
        for (const entry of batch) entry.resolve(recorded.has(entry.outcome.claimed.id));
      } catch (error) {
        for (const entry of batch) entry.reject(error as Error);
      }
    }
    recording = false;
  }

  return {
    record(outcome) {
      return new Promise<boolean>((resolve, reject) => {
        waiting.push({ outcome, resolve, reject });
        if (!recording) void flush();
        else if (waiting.length >= FULL_BATCH) full?.();
      });
    },
  };
}
