// Errors the local chains raise at start-up, with what to do about them.
import { ServiceError } from "../../core/errors/serviceError";
export class ChainStartError extends ServiceError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}
