import type { NextFunction, Request, Response } from "express";
import { ApiError, errorEnvelope } from "../../core/errors/catalogue";
import { isDatabaseUnavailable } from "../../storage/unavailable";

export function notFound(req: Request, _res: Response, next: NextFunction): void {
  next(
    new ApiError(
      "not_found",
      `No route ${req.method} ${req.path}. The API lives under /api/v1; see GET /api/v1/openapi.`,
    ),
  );
}

/** Body-parser failures carry a `type`; they are the client's fault and must never read as a 500. */
function clientErrorOf(error: { type?: string; status?: number; limit?: number }): ApiError | undefined {
  switch (error.type) {
    case "entity.parse.failed":
      return new ApiError(
        "invalid_request",
        "The request body is not valid JSON. Send a JSON object with Content-Type: application/json.",
      );
    case "entity.too.large":
      return new ApiError(
        "payload_too_large",
        `The request body is larger than the ${error.limit} bytes this API accepts.`,
      );
    case "encoding.unsupported":
    case "charset.unsupported":
      return new ApiError("unsupported_media_type");
    case "request.aborted":
      return new ApiError("invalid_request", "The request body ended early.");
    default:
      return error.status && error.status >= 400 && error.status < 500
        ? new ApiError("invalid_request", "The request could not be read.")
        : undefined;
  }
}

export function errorHandler(log: (message: string) => void) {
  return (error: unknown, _req: Request, res: Response, _next: NextFunction): void => {
    const known = error instanceof ApiError ? error : clientErrorOf(error as { type?: string });
    if (known) {
      res.status(known.status).json(known.toEnvelope());
      return;
    }
    if (isDatabaseUnavailable(error)) {
      res.status(503).json(errorEnvelope("service_unavailable", undefined, { cause: "data_path" }));
      return;
    }
    // Unexpected failures are logged by name and message only: request data may hold secrets.
    log(`unhandled error: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`);
    res.status(500).json(errorEnvelope("internal_error"));
  };
}
