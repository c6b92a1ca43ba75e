// The load generators' closed loop: `concurrency` clients, each sending its next request as soon as the last
// is answered, for a fixed time. It measures a server's maximum rate (the open loop, ./openLoop, its latency at
// a set rate).
import type { Send } from "./openLoop";

export interface Measurement {
  /** Each answer's latency in ms, in the order answered. */
  latencies: number[];
  /** Answers other than 200, transport errors included. */
  errors: number;
  seconds: number;
}

/** `concurrency` clients sending requests numbered from 1 through `send` for `durationMs`. */
export async function closedLoop(send: Send, durationMs: number, concurrency: number): Promise<Measurement> {
  const latencies: number[] = [];
  let errors = 0;
  let counter = 0;
  const deadline = performance.now() + durationMs;
  const client = async () => {
    while (performance.now() < deadline) {
      counter += 1;
      const started = performance.now();
      const status = await send(counter);
      latencies.push(performance.now() - started);
      if (status !== 200) errors += 1;
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, client));
  return { latencies, errors, seconds: (performance.now() - started) / 1000 };
}

/** Measurements taken in turns, as one: their latencies sorted ascending, their errors and seconds summed. */
export function combined(measurements: readonly Measurement[]): Measurement {
  return {
    latencies: measurements.flatMap((measurement) => measurement.latencies).sort((a, b) => a - b),
    errors: measurements.reduce((sum, measurement) => sum + measurement.errors, 0),
    seconds: measurements.reduce((sum, measurement) => sum + measurement.seconds, 0),
  };
}
