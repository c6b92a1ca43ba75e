// The shared retry/backoff rule of every loop: bounds, jitter, reset on success, and what it logs.
import { expect } from "chai";
import { backoffDelay, backoffPolicy, createBackoff, retryUntilSuccess } from "../../core/retry/backoff";

const POLICY = { initialDelayMs: 100, maxDelayMs: 1_000 };

describe("core/retry/backoff", () => {
  describe("backoffDelay", () => {
    it("doubles from the initial delay up to the cap, with equal jitter (half fixed, half random)", () => {
      const lowest = [1, 2, 3, 4, 5, 6, 50].map((attempt) => backoffDelay(POLICY, attempt, () => 0));
      const highest = [1, 2, 3, 4, 5, 6, 50].map((attempt) => backoffDelay(POLICY, attempt, () => 1));
      expect(lowest).to.deep.equal([50, 100, 200, 400, 500, 500, 500]);
      expect(highest).to.deep.equal([100, 200, 400, 800, 1_000, 1_000, 1_000]);
    });

    it("stays finite and within the cap for any number of attempts", () => {
      for (const attempt of [100, 10_000, Number.MAX_SAFE_INTEGER]) {
        const delay = backoffDelay(POLICY, attempt, () => 0.5);
        expect(delay).to.be.within(500, 1_000);
      }
    });
  });

  describe("backoffPolicy", () => {
    it("starts at the loop's interval and caps at max(interval, 5 s)", () => {
      expect(backoffPolicy(1_000)).to.deep.equal({ initialDelayMs: 1_000, maxDelayMs: 5_000 });
      expect(backoffPolicy(20_000)).to.deep.equal({ initialDelayMs: 20_000, maxDelayMs: 20_000 });
    });

    it("takes overrides (tests shrink the cap) and never starts above the cap", () => {
      expect(backoffPolicy(1_000, { maxDelayMs: 200 })).to.deep.equal({
        initialDelayMs: 200,
        maxDelayMs: 200,
      });
      expect(backoffPolicy(100, { initialDelayMs: 10, maxDelayMs: 50 })).to.deep.equal({
        initialDelayMs: 10,
        maxDelayMs: 50,
      });
    });
  });

  describe("createBackoff", () => {
    const tracker = () => {
      const lines: string[] = [];
      const backoff = createBackoff({
        what: "test pass",
        log: (line) => lines.push(line),
        policy: POLICY,
        random: () => 1,
      });
      return { lines, backoff };
    };

    it("logs each failure with its attempt count and the next delay, and returns that delay", () => {
      const { lines, backoff } = tracker();
      expect(backoff.failed(new Error("connect ECONNREFUSED"))).to.equal(100);
      expect(backoff.failed(new Error("connect ECONNREFUSED"))).to.equal(200);
      expect(backoff.failures()).to.equal(2);
      expect(lines).to.deep.equal([
        "test pass failed (attempt 1), retrying in 100 ms: connect ECONNREFUSED",
        "test pass failed (attempt 2), retrying in 200 ms: connect ECONNREFUSED",
      ]);
    });

    it("condenses a repeated message to the first three attempts and every tenth, never silent for long", () => {
      const { lines, backoff } = tracker();
      for (let attempt = 1; attempt <= 30; attempt++) backoff.failed(new Error("same"));
      expect(lines.map((line) => /attempt (\d+)/.exec(line)?.[1])).to.deep.equal([
        "1",
        "2",
        "3",
        "10",
        "20",
        "30",
      ]);
    });

    it("logs a new message at once, whatever the attempt", () => {
      const { lines, backoff } = tracker();
      for (let attempt = 1; attempt <= 5; attempt++) backoff.failed(new Error("same"));
      backoff.failed("something else");
      expect(lines.at(-1)).to.equal("test pass failed (attempt 6), retrying in 1000 ms: something else");
    });

    it("logs the recovery once and starts the delays over after a success", () => {
      const { lines, backoff } = tracker();
      for (let attempt = 1; attempt <= 4; attempt++) backoff.failed(new Error("down"));
      backoff.succeeded();
      backoff.succeeded();
      expect(lines.filter((line) => line.includes("resumed"))).to.deep.equal([
        "test pass resumed after 4 failed attempts",
      ]);
      expect(backoff.failures()).to.equal(0);
      expect(backoff.failed(new Error("down"))).to.equal(100);
      expect(lines.at(-1)).to.match(/attempt 1\)/);
    });

    it("logs nothing while everything succeeds", () => {
      const { lines, backoff } = tracker();
      backoff.succeeded();
      expect(lines).to.deep.equal([]);
    });
  });

  describe("retryUntilSuccess", () => {
    it("retries until the attempt succeeds, sleeping the backoff's delays, and logs the recovery", async () => {
      const lines: string[] = [];
      const slept: number[] = [];
      let calls = 0;
      const result = await retryUntilSuccess(
        async () => {
          calls += 1;
          if (calls < 4) throw new Error(`down ${calls}`);
          return "up";
        },
        {
          backoff: createBackoff({
            what: "start",
            log: (line) => lines.push(line),
            policy: POLICY,
            random: () => 0,
          }),
          sleep: async (ms) => {
            slept.push(ms);
          },
        },
      );
      expect(result).to.equal("up");
      expect(slept).to.deep.equal([50, 100, 200]);
      expect(lines.at(-1)).to.equal("start resumed after 3 failed attempts");
    });

    it("throws a fatal error at once, without retrying", async () => {
      let calls = 0;
      const fatal = new TypeError("wrong chain id");
      const outcome = await retryUntilSuccess(
        async () => {
          calls += 1;
          throw fatal;
        },
        {
          backoff: createBackoff({ what: "start", log: () => undefined, policy: POLICY }),
          isFatal: (error) => error instanceof TypeError,
          sleep: async () => undefined,
        },
      ).catch((error: unknown) => error);
      expect(outcome).to.equal(fatal);
      expect(calls).to.equal(1);
    });
  });
});
