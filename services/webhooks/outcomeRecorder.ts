// Group commit for attempt outcomes: an outcome that finishes while a recording statement is under way waits
// for the next one, which records everything that gathered meanwhile (claims.ts recordAttempts). Alone, an
// outcome is recorded at once; under load, one commit serves many attempts instead of one each.
import type { Pool } from "pg";
import { type LeasedOutcome, recordAttempts } from "./claims";

export interface OutcomeRecorder {
  /** Resolves true once recorded, false when the lease was lost; rejects when the statement failed. */
  record(outcome: LeasedOutcome): Promise<boolean>;
}

interface Waiting {
  outcome: LeasedOutcome;
  resolve: (recorded: boolean) => void;
  reject: (error: Error) => void;
}

/** `named`: whether statements may be named on `pool` (storage/namedStatements). */
export function outcomeRecorder(
  pool: Pool,
  named: () => Promise<boolean> = async () => false,
): OutcomeRecorder {
  let waiting: Waiting[] = [];
  let recording = false;

  async function flush(): Promise<void> {
    recording = true;
    while (waiting.length > 0) {
      const batch = waiting;
      waiting = [];
      try {
        const recorded = await recordAttempts(
          pool,
          batch.map((entry) => entry.outcome),
          await named(),
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
      });
    },
  };
}
