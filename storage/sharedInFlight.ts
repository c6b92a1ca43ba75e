// One run of some work at a time, shared by every caller that asks while it runs: a probe that hangs on a
// frozen dependency then holds one connection however many callers ask, instead of one per caller.

/** A function that starts `work` when none is running and otherwise answers with the running one. */
export function sharedInFlight<T>(work: () => Promise<T>): () => Promise<T> {
  let running: Promise<T> | undefined;
  return () => {
    running ??= work().finally(() => {
      running = undefined;
    });
    return running;
  };
}
