// Steady load: requests start on a fixed schedule (open loop, so a slow service shows as queued time, not as a
// lower rate), with at most `maxInFlight` outstanding; a start that would exceed it is skipped and counted. The
// loop ends by itself at its deadline and then waits only for requests already sent, each bounded by the
// client's timeout.

export interface LoadPlan {
  ratePerSecond: number;
  durationMs: number;
  maxInFlight: number;
  send(index: number): Promise<unknown>;
}

export interface LoadResult {
  sent: number;
  /** Starts skipped because `maxInFlight` requests were outstanding. */
  skipped: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function steadyLoad(plan: LoadPlan): Promise<LoadResult> {
  const started = performance.now();
  const total = Math.floor((plan.ratePerSecond * plan.durationMs) / 1000);
  const inFlight = new Set<Promise<unknown>>();
  let sent = 0;
  let skipped = 0;
  for (let index = 0; index < total; index += 1) {
    const wait = started + (index * 1000) / plan.ratePerSecond - performance.now();
    if (wait > 1) await sleep(wait);
    if (inFlight.size >= plan.maxInFlight) {
      skipped += 1;
      continue;
    }
    sent += 1;
    const request = plan.send(index).catch(() => undefined);
    inFlight.add(request);
    void request.then(() => inFlight.delete(request));
  }
  await Promise.all(inFlight);
  return { sent, skipped };
}
