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

export interface ErrorResponse {
  status: number;
  body: object;
}

/**
 * The status and envelope answering a failed request, for the Express routes and the direct routes alike.
 * Framework errors with a 4xx status (a malformed URI, say) are the client's; unexpected failures are
 * logged by name and message only, since request data may hold secrets.
 */
export function errorResponseOf(error: unknown, log: (message: string) => void): ErrorResponse {
  if (error instanceof ApiError) return { status: error.status, body: error.toEnvelope() };
  if (isDatabaseUnavailable(error)) {
    return { status: 503, body: errorEnvelope("service_unavailable", undefined, { cause: "data_path" }) };
  }
  const status = (error as { status?: unknown } | null)?.status;
  if (typeof status === "number" && status >= 400 && status < 500) {
    return { status: 400, body: errorEnvelope("invalid_request", "The request could not be read.") };
  }
  log(`unhandled error: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`);
  return { status: 500, body: errorEnvelope("internal_error") };
}

export function errorHandler(log: (message: string) => void) {
  return (error: unknown, _req: Request, res: Response, _next: NextFunction): void => {
    const { status, body } = errorResponseOf(error, log);
    res.status(status).json(body);
  };
}
