// A job's pass with its duration observed (worker_pass_duration_seconds by job and outcome).
import { timePass } from "../telemetry/metrics";

export function timedPass(job: string, pass: () => Promise<void>): () => Promise<void> {
  return async () => {
    const end = timePass(job);
    try {
      await pass();
      end("ok");
    } catch (error) {
      end("failed");
      throw error;
    }
  };
}
