// The webhook job's outbox poll: fast while events flow, the idle interval once none came for the active window,
// so an idle service does not probe the outbox 20 times a second.
import { expect } from "chai";
import {
  WEBHOOK_ACTIVE_WINDOW_MS,
  WEBHOOK_IDLE_POLL_INTERVAL_MS,
  WEBHOOK_POLL_INTERVAL_MS,
  webhookPollPauseMs,
} from "../../worker/webhooks";

describe("worker: webhook outbox polling", () => {
  const lastEventAt = 1_000_000;

  it("polls at the fast interval within the active window after the last event", () => {
    expect(webhookPollPauseMs(lastEventAt, lastEventAt)).to.equal(WEBHOOK_POLL_INTERVAL_MS);
    expect(webhookPollPauseMs(lastEventAt + WEBHOOK_ACTIVE_WINDOW_MS, lastEventAt)).to.equal(
      WEBHOOK_POLL_INTERVAL_MS,
    );
  });

  it("past the window, and before any event, polls at the idle interval", () => {
    expect(WEBHOOK_IDLE_POLL_INTERVAL_MS).to.be.greaterThan(WEBHOOK_POLL_INTERVAL_MS);
    expect(webhookPollPauseMs(lastEventAt + WEBHOOK_ACTIVE_WINDOW_MS + 1, lastEventAt)).to.equal(
      WEBHOOK_IDLE_POLL_INTERVAL_MS,
    );
    expect(webhookPollPauseMs(lastEventAt, Number.NEGATIVE_INFINITY)).to.equal(WEBHOOK_IDLE_POLL_INTERVAL_MS);
  });
});
