// The benches' open loop: requests start on schedule whatever the answers do, every answer is counted once,
// a send that fails outright counts as an error instead of hanging the loop, and a loop that ran late moves its
// schedule on instead of sending what it missed in one bunch.
import { expect } from "chai";
import { MAX_SEND_LAG_MS, openLoop } from "../../bench/support/openLoop";

const after = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("bench: the open loop", () => {
  it("starts rate x duration requests on schedule, numbered from the first index, and waits for every answer", async () => {
    const sent: { index: number; at: number }[] = [];
    const started = performance.now();
    const sample = await openLoop(
      async (index) => {
        sent.push({ index, at: performance.now() - started });
        await after(30); // slower than the schedule: an open loop does not wait for it
        return 200;
      },
      200,
      100,
      1_000,
    );
    expect(sent.map((request) => request.index)).to.deep.equal(
      Array.from({ length: 20 }, (_, n) => 1_000 + n),
    );
    expect(sample.latencies).to.have.length(20);
    expect(sample.errors).to.equal(0);
    // Request n goes out at its time on the schedule (5 ms apart; timers run on whole ms, so up to 2 ms early), not
    // after the answer before it: one after another, 20 answers of 30 ms would take 600 ms.
    for (const [n, request] of sent.entries()) expect(request.at).to.be.at.least(n * 5 - 2.5);
    expect(sample.seconds).to.be.below(0.5);
    for (const latency of sample.latencies) expect(latency).to.be.at.least(29);
    expect(sample.latencies).to.deep.equal([...sample.latencies].sort((a, b) => a - b));
  });

  it("counts answers other than 200 and sends that fail outright as errors", async () => {
    const sample = await openLoop(
      async (index) => {
        if (index % 3 === 0) throw new Error("connection refused");
        return index % 3 === 1 ? 503 : 200;
      },
      1_000,
      9,
    );
    expect(sample.latencies).to.have.length(9);
    expect(sample.errors).to.equal(6);
  });

  it("after its own thread was held up, moves the schedule on by the slip instead of sending a bunch", async () => {
    const sent: number[] = [];
    const sample = await openLoop(
      async (index) => {
        sent.push(performance.now());
        if (index === 5) {
          const until = performance.now() + 30;
          while (performance.now() < until); // this process busy for 30 ms, as under a long GC
        }
        return 200;
      },
      1_000,
      40,
    );
    expect(sent).to.have.length(40);
    // The hold-up's 30 ms, less the lag let go (and 1 ms of timer rounding), plus whatever a busy machine adds.
    expect(sample.slipMs).to.be.within(30 - MAX_SEND_LAG_MS - 1, 80);
    // Caught up at once, the 30 requests missed would all leave within a millisecond of the hold-up ending.
    // Moving on, the next one or two are due within that millisecond anyway, and on a loaded machine a timer
    // armed on the event loop's time from before the hold-up can fire at once (CI saw 4 there).
    const [heldUntil] = sent.slice(6);
    const bunched = sent.filter((at) => at >= (heldUntil as number) && at < (heldUntil as number) + 1);
    expect(bunched.length).to.be.at.most(5);
    expect(sample.seconds).to.be.at.least(0.065);
  });
});
