// The work a dispatcher has started beside its loop (attempts, claims, lease releases), so that settle and stop
// can wait for it, for a bounded time.
export class UnderWay {
  private readonly running = new Set<Promise<void>>();

  get size(): number {
    return this.running.size;
  }

  track(work: Promise<void>): void {
    const tracked = work.finally(() => this.running.delete(tracked));
    this.running.add(tracked);
  }

  /** Waits for the work under way for at most `withinMs` (real time); the number still under way then. */
  async after(withinMs: number): Promise<number> {
    let timer: NodeJS.Timeout | undefined;
    const timeUp = new Promise<"time up">((resolve) => {
      if (Number.isFinite(withinMs)) timer = setTimeout(() => resolve("time up"), withinMs);
    });
    try {
      while (this.running.size > 0) {
        if ((await Promise.race([Promise.all(this.running), timeUp])) === "time up") break;
      }
    } finally {
      clearTimeout(timer);
    }
    return this.running.size;
  }
}
