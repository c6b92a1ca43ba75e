// The webhook job's outbox poll: every tick while events flow, every idle interval once none came for the
// active window, so an idle service does not probe the outbox 20 times a second.
import { expect } from "chai";
import {
  WEBHOOK_ACTIVE_WINDOW_MS,
  WEBHOOK_IDLE_POLL_INTERVAL_MS,
  WEBHOOK_POLL_INTERVAL_MS,
  webhookPollDue,
} from "../../worker/webhooks";

describe("worker: webhook outbox polling", () => {
  const start = 1_000_000;

  it("runs a pass at every tick within the active window after the last event", () => {
    const lastPassAt = start + WEBHOOK_ACTIVE_WINDOW_MS - WEBHOOK_POLL_INTERVAL_MS;
    expect(webhookPollDue(lastPassAt + WEBHOOK_POLL_INTERVAL_MS, lastPassAt, start)).to.equal(true);
  });

  it("past the window, skips ticks until the idle interval has passed since the last pass", () => {
    const lastPassAt = start + WEBHOOK_ACTIVE_WINDOW_MS + 1;
    expect(webhookPollDue(lastPassAt + WEBHOOK_POLL_INTERVAL_MS, lastPassAt, start)).to.equal(false);
    expect(webhookPollDue(lastPassAt + WEBHOOK_IDLE_POLL_INTERVAL_MS - 1, lastPassAt, start)).to.equal(false);
    expect(webhookPollDue(lastPassAt + WEBHOOK_IDLE_POLL_INTERVAL_MS, lastPassAt, start)).to.equal(true);
  });

  it("runs the first pass at once, before any event", () => {
    expect(webhookPollDue(start, Number.NEGATIVE_INFINITY, Number.NEGATIVE_INFINITY)).to.equal(true);
  });
});
