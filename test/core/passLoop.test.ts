// The shared loop of the roles: failed passes never end it, wake() cuts only a poll pause, stop() waits for
// the pass under way.
import { expect } from "chai";
import { createBackoff } from "../../core/retry/backoff";
import { startPassLoop } from "../../core/retry/passLoop";

const quietBackoff = (lines: string[], delayMs = 2) =>
  createBackoff({
    what: "test pass",
    log: (line) => lines.push(line),
    policy: { initialDelayMs: delayMs, maxDelayMs: delayMs },
  });

const until = async (condition: () => boolean) => {
  for (let tries = 0; tries < 500 && !condition(); tries += 1) await new Promise((r) => setTimeout(r, 5));
  expect(condition()).to.equal(true);
};

describe("core/retry: the pass loop", () => {
  it("keeps running passes after any number of failures and logs the recovery", async () => {
    const lines: string[] = [];
    let calls = 0;
    const loop = startPassLoop({
      pass: async () => {
        calls += 1;
        if (calls <= 3) throw new Error(`down ${calls}`);
      },
      intervalMs: 1,
      backoff: quietBackoff(lines),
    });
    await until(() => calls >= 6);
    await loop.stop();
    expect(lines.filter((line) => line.includes("failed (attempt"))).to.have.length(3);
    expect(lines.some((line) => line.includes("resumed after 3 failed attempts"))).to.equal(true);
  });

  it("wake() ends a poll pause at once but not a backoff pause", async () => {
    let calls = 0;
    let failNext = false;
    const loop = startPassLoop({
      pass: async () => {
        calls += 1;
        if (failNext) throw new Error("down");
      },
      intervalMs: 60_000,
      backoff: quietBackoff([], 60_000),
    });
    await until(() => calls === 1);
    loop.wake();
    await until(() => calls === 2);
    failNext = true;
    loop.wake();
    await until(() => calls === 3);
    loop.wake();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(calls).to.equal(3);
    await loop.stop();
  });

  it("a wake() during a pass runs the next pass without a pause (the pass may have missed the new work)", async () => {
    let calls = 0;
    const loop = startPassLoop({
      pass: async () => {
        calls += 1;
        await new Promise((resolve) => setTimeout(resolve, 20));
      },
      intervalMs: 60_000,
      backoff: quietBackoff([]),
    });
    await until(() => calls === 1);
    loop.wake();
    await until(() => calls === 2);
    await loop.stop();
  });

  it("stop() lets the pass under way finish and starts no other", async () => {
    let finished = 0;
    let started = 0;
    const loop = startPassLoop({
      pass: async () => {
        started += 1;
        await new Promise((resolve) => setTimeout(resolve, 30));
        finished += 1;
      },
      intervalMs: 1,
      backoff: quietBackoff([]),
    });
    await until(() => started === 1);
    await loop.stop();
    expect(finished).to.equal(started);
    const after = started;
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(started).to.equal(after);
  });
});
