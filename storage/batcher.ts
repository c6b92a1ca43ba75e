// Coalesces concurrent calls into batched calls (DataLoader style), so a hot path costs one database
// statement per batch instead of one per request. Calls made in the same turn of the event loop go out
// together once it ends (setImmediate: every request read in this I/O phase has been parsed by then);
// while `maxInFlight` batches are running, further calls wait and join the next batch, so batches grow
// with the load instead of statements queueing up. A failed batch fails every call in it: callers fail
// closed exactly as they would on their own statement.
import { ServiceError } from "../core/errors/serviceError";

export interface BatchOptions {
  /** Largest batch per call of `run`; a longer queue is sent in several batches. */
  maxBatch: number;
  /** Batches running at once, read at every flush; more calls wait for one of them to finish. */
  maxInFlight: number | (() => number);
}

/** Answers one batch: `outputs[i]` belongs to `inputs[i]`. */
export type BatchRun<I, O> = (inputs: readonly I[]) => Promise<readonly O[]>;

interface Pending<I, O> {
  input: I;
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
    try {
      const outputs = await run(batch.map((pending) => pending.input));
      if (outputs.length !== batch.length) throw new BatchLengthError(batch.length, outputs.length);
      batch.forEach((pending, index) => {
        pending.resolve(outputs[index] as O);
      });
    } catch (error) {
      for (const pending of batch) pending.reject(error);
    } finally {
      inFlight -= 1;
      flush();
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
      queue.push({ input, resolve, reject });
      if (!scheduled && inFlight < maxInFlight()) {
        scheduled = true;
        setImmediate(flush);
      }
    });
}
