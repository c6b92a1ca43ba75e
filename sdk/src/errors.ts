// The SDK's errors. One base class (like the service's ServiceError) so a caller can catch every SDK error
// by type; API errors carry the error catalogue's code, typed, so a caller branches on `code`, never on text.
import type { ERROR_CATALOGUE } from "../../core/errors/catalogue";

/** Every error code the service answers with (core/errors/catalogue.ts). */
export type ServiceErrorCode = keyof typeof ERROR_CATALOGUE;

export class SdkError extends Error {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
  }
}

/** A non-2xx answer of the service, with its error envelope `{ error: { code, message, details } }`. */
export class ServiceApiError extends SdkError {
  constructor(
    readonly status: number,
    /** The catalogue code; "unknown" when the body was not the service's error envelope (a proxy's page). */
    readonly code: ServiceErrorCode | "unknown",
    message: string,
    readonly details: unknown,
    /** Seconds from a `Retry-After` header (429, 503), when sent. */
    readonly retryAfterSeconds: number | undefined,
  ) {
    super(`${status} ${code}: ${message}`);
  }
}

/** The service could not be reached, or did not answer in time. */
export class ServiceNetworkError extends SdkError {}

/** verifyWebhook refused a delivery: answer 400 and do not process it. */
export class WebhookVerificationError extends SdkError {
  constructor(
    readonly reason:
      | "not_raw_body"
      | "malformed_header"
      | "timestamp_out_of_tolerance"
      | "bad_signature"
      | "malformed_event",
    message: string,
  ) {
    super(message);
  }
}

/** A misconfigured SDK call (a programming error, not an outcome): thrown at once. */
export class SdkConfigError extends SdkError {}
