// Coalesces concurrent calls into batched calls (DataLoader style), so a hot path costs one database
// statement per batch instead of one per request. Calls made in the same turn of the event loop go out
// together once it ends (setImmediate: every request read in this I/O phase has been parsed by then);
// while `maxInFlight` batches are running, further calls wait and join the next batch, so batches grow
// with the load instead of statements queueing up. A failed batch fails every call in it: callers fail
// closed exactly as they would on their own statement. An observer learns what each batch took, so an
// operator can tell a slow statement from calls held back for a batch in flight (telemetry/metrics).
import { ServiceError } from "../core/errors/serviceError";
import type { BatchFigures } from "../telemetry/metrics";

export interface BatchOptions {
  /** Largest batch per call of `run`; a longer queue is sent in several batches. */
  maxBatch: number;
  /** Batches running at once, read at every flush; more calls wait for one of them to finish. */
  maxInFlight: number | (() => number);
  /** Told of every batch once it is answered or has failed. */
  observe?: (batch: BatchFigures) => void;
}

/** Answers one batch: `outputs[i]` belongs to `inputs[i]`. */
export type BatchRun<I, O> = (inputs: readonly I[]) => Promise<readonly O[]>;

interface Pending<I, O> {
  input: I;
  /** performance.now() when the call was made. */
  calledAt: number;
  resolve(output: O): void;
  reject(error: unknown): void;
}

export class BatchLengthError extends ServiceError {
  constructor(inputs: number, outputs: number) {
    super(`A batch of ${inputs} inputs answered ${outputs} outputs.`);
  }
}

/** Returns `load(input)`, which resolves with the output of `input` in the batch that carried it. */
export function batcher<I, O>(run: BatchRun<I, O>, options: BatchOptions): (input: I) => Promise<O> {
  const queue: Pending<I, O>[] = [];
  let inFlight = 0;
  let scheduled = false;
  const maxInFlight =
    typeof options.maxInFlight === "number" ? () => options.maxInFlight as number : options.maxInFlight;

  async function send(batch: Pending<I, O>[]): Promise<void> {
    inFlight += 1;
    const sentAt = performance.now();
    let failed = false;
    try {
      const outputs = await run(batch.map((pending) => pending.input));
      if (outputs.length !== batch.length) throw new BatchLengthError(batch.length, outputs.length);
      batch.forEach((pending, index) => {
        pending.resolve(outputs[index] as O);
      });
    } catch (error) {
      failed = true;
      for (const pending of batch) pending.reject(error);
    } finally {
      inFlight -= 1;
      const answeredAt = performance.now();
      flush();
      options.observe?.({
        size: batch.length,
        heldMs: sentAt - (batch[0] as Pending<I, O>).calledAt,
        runMs: answeredAt - sentAt,
        failed,
      });
    }
  }

  function flush(): void {
    scheduled = false;
    while (queue.length > 0 && inFlight < maxInFlight()) {
      void send(queue.splice(0, options.maxBatch));
    }
  }

  return (input) =>
    new Promise<O>((resolve, reject) => {
      queue.push({ input, calledAt: performance.now(), resolve, reject });
      if (!scheduled && inFlight < maxInFlight()) {
        scheduled = true;
        setImmediate(flush);
      }
    });
}
