// The load generators' open loop: requests start on a fixed schedule whatever the answers do, so a server that
// falls behind shows it in latency. The latency measured here is the server's plus whatever holds up this
// process's event loop, so nothing outlives its request: a finished request leaves no promise behind. An array
// of every request's promise kept them all through the young generation's scavenges, which took 3-15 ms each
// several times a turn at the identity check's half rate; without it, one or none over 3 ms.
//
// The loop never waits for answers, so it falls behind its schedule only when its own thread did not run (its
// GC, a bunch of answers to read, the cores busy with the servers). It then moves the schedule on instead of
// sending the missed requests at once: on two cores, a 4-14 ms slip sent 20-70 requests in one millisecond (five
// is the check's half rate), and those bunches queued at the server for 10-25 ms and set every turn's p99. No
// client population sends that way. The slip is reported, so a reader sees how far the rate fell short.

/** Sends request number `index` and resolves to its status (0 on a transport error). */
export type Send = (index: number) => Promise<number>;

/** Lateness past which the schedule moves on instead of catching up in a bunch. */
export const MAX_SEND_LAG_MS = 2;

export interface OpenLoopSample {
  /** Each answer's latency in ms, sorted ascending. */
  latencies: number[];
  /** Answers other than 200, transport errors included. */
  errors: number;
  seconds: number;
  /** How far the schedule moved on because this process ran late (ms): the turn took that much longer. */
  slipMs: number;
}

/** `ratePerSecond` requests a second for `durationMs` (plus any slip), numbered from `firstIndex`. */
export async function openLoop(
  send: Send,
  ratePerSecond: number,
  durationMs: number,
  firstIndex = 0,
): Promise<OpenLoopSample> {
  const latencies: number[] = [];
  let errors = 0;
  let outstanding = 0;
  let allAnswered: (() => void) | undefined;
  const started = performance.now();
  let slipMs = 0;
  const total = Math.floor((ratePerSecond * durationMs) / 1000);
  for (let index = 0; index < total; index += 1) {
    const wait = started + slipMs + (index * 1000) / ratePerSecond - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    else if (wait < -MAX_SEND_LAG_MS) slipMs -= wait;
    const sent = performance.now();
    outstanding += 1;
    const answered = (status: number) => {
      latencies.push(performance.now() - sent);
      if (status !== 200) errors += 1;
      outstanding -= 1;
      if (outstanding === 0) allAnswered?.();
    };
    send(firstIndex + index).then(answered, () => answered(0));
  }
  if (outstanding > 0) await new Promise<void>((resolve) => (allAnswered = resolve));
  const seconds = (performance.now() - started) / 1000;
  return { latencies: latencies.sort((a, b) => a - b), errors, seconds, slipMs };
}

/** The share of the samples' time their schedule slipped: how far short of the asked rate they fell. */
export function slipShare(samples: readonly OpenLoopSample[]): number {
  const slipMs = samples.reduce((sum, sample) => sum + sample.slipMs, 0);
  const ms = samples.reduce((sum, sample) => sum + sample.seconds * 1000, 0);
  return ms > 0 ? slipMs / ms : 0;
}
