// A role's long-running loop: run a pass, pause for the interval, again, until stopped. A failed pass never
// ends the loop: the backoff (./backoff.ts) logs it and says how long to wait before the next one. Shared by
// the Solana indexer, the EVM checkpoint monitor and the worker, so every loop recovers the same way.
import type { Backoff } from "./backoff";

export interface PassLoopOptions {
  pass: () => Promise<void>;
  /** Pause after a successful pass: fixed, or read after each pass (a loop that polls faster while busy). */
  intervalMs: number | (() => number);
  backoff: Backoff;
}

export interface PassLoop {
  /**
   * A hint that there is new work: ends the pause after a successful pass at once (or skips it, when it comes
   * during a pass, which may have started before the work did); a backoff pause runs its course.
   */
  wake(): void;
  /** No pass starts after this; resolves once the pass under way (if any) has finished. */
  stop(): Promise<void>;
}

export function startPassLoop(options: PassLoopOptions): PassLoop {
  const { intervalMs } = options;
  const intervalAfterPass = typeof intervalMs === "number" ? () => intervalMs : intervalMs;
  let stopped = false;
  let backingOff = false;
  let woken = false;
  let endPause: (() => void) | undefined;
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      endPause = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  const loop = (async () => {
    while (!stopped) {
      let pauseMs: number;
      woken = false;
      try {
        await options.pass();
        pauseMs = woken ? 0 : intervalAfterPass();
        options.backoff.succeeded();
        backingOff = false;
      } catch (error) {
        pauseMs = options.backoff.failed(error);
        backingOff = true;
      }
      if (!stopped) await pause(pauseMs);
    }
  })();
  return {
    wake() {
      if (backingOff) return;
      woken = true;
      endPause?.();
    },
    async stop() {
      stopped = true;
      endPause?.();
      await loop;
    },
  };
}
