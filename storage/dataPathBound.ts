// The one bound on how long a request waits for the database: past it, the request answers 503 instead of
// hanging with a frozen or unreachable server. The work itself is not cancelled; callers that may pile up
// unfinished work on a frozen server cap it themselves (see api/routes/health.ts).
import { ServiceError } from "../core/errors/serviceError";

/** Default bound on a request's data work; decisions take theirs from `decisions.dataPathTimeoutMs`. */
export const DEFAULT_DATA_PATH_TIMEOUT_MS = 2000;

export class DataPathTimeoutError extends ServiceError {
  constructor(readonly timeoutMs: number) {
    super(`The data path did not answer within ${timeoutMs} ms.`);
  }
}

/** `work`'s result, or a DataPathTimeoutError once `limitMs` have passed without one. */
export function withinDataPathBound<T>(work: Promise<T>, limitMs: number): Promise<T> {
  // One promise and one timer per call (not Promise.race's): this runs on every hot-path request.
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new DataPathTimeoutError(limitMs)), limitMs);
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
