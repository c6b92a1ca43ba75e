// The load generators' open loop: requests start on a fixed schedule whatever the answers do, so a server that
// falls behind shows it in latency. The latency measured here is the server's plus whatever holds up this
// process's event loop, so nothing outlives its request: a finished request leaves no promise behind. An array
// of every request's promise kept them all through the young generation's scavenges, which took 3-15 ms each
// several times a turn at the identity check's half rate; without it, one or none over 3 ms.

/** Sends request number `index` and resolves to its status (0 on a transport error). */
export type Send = (index: number) => Promise<number>;

export interface OpenLoopSample {
  /** Each answer's latency in ms, sorted ascending. */
  latencies: number[];
  /** Answers other than 200, transport errors included. */
  errors: number;
  seconds: number;
}

/** `ratePerSecond` requests a second for `durationMs`, numbered from `firstIndex`. */
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
  const total = Math.floor((ratePerSecond * durationMs) / 1000);
  for (let index = 0; index < total; index += 1) {
    const wait = started + (index * 1000) / ratePerSecond - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
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
  return { latencies: latencies.sort((a, b) => a - b), errors, seconds };
}
