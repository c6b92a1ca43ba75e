// Per-process counting of keyless calls (per client address and host environment) in the same clock-minute
// windows as keys. Keys are counted exactly in Postgres across processes; keyless calls are counted here, in
// memory, so the public identity check costs no extra database round trip: with N API processes a client can
// make up to N times the keyless limit, and an edge proxy should carry any stricter public limit.
import { type RateState, rateWindowAt } from "../../services/partners/rateWindow";

/** Distinct clients tracked per minute; beyond it new clients share one bucket, so memory stays bounded. */
export const KEYLESS_CLIENTS_MAX = 100_000;
const OVERFLOW_SUBJECT = "overflow";

export class KeylessLimiter {
  private windowStartMs = -1;
  private readonly counts = new Map<string, number>();

  constructor(private readonly limitPerMinute: number) {}

  count(subject: string, nowMs: number): RateState {
    const window = rateWindowAt(nowMs);
    if (window.start.getTime() !== this.windowStartMs) {
      this.windowStartMs = window.start.getTime();
      this.counts.clear();
    }
    const key =
      this.counts.has(subject) || this.counts.size < KEYLESS_CLIENTS_MAX ? subject : OVERFLOW_SUBJECT;
    const count = (this.counts.get(key) ?? 0) + 1;
    this.counts.set(key, count);
    return { limit: this.limitPerMinute, count, window };
  }
}
