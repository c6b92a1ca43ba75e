import type { NextFunction, Request, Response } from "express";
import { ApiError, type ErrorEnvelope, errorEnvelope } from "../../core/errors/catalogue";
import { isDatabaseUnavailable } from "../../storage/unavailable";
import { requestIdOf } from "./requestLog";

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
 * The status and envelope answering a failed request, in the request sequence and on Express (pages, 404s),
 * with the request's id in `details.requestId` (details that are not an object go under `details.value`).
 * Framework errors with a 4xx status (a malformed URI, say) are the client's; unexpected failures are
 * logged by name and message only (and the request id), since request data may hold secrets.
 */
export function errorResponseOf(
  error: unknown,
  log: (message: string) => void,
  requestId: string | undefined,
): ErrorResponse {
  const { status, body } = bareErrorResponseOf(error, log, requestId);
  return { status, body: requestId === undefined ? body : withRequestId(body, requestId) };
}

function bareErrorResponseOf(
  error: unknown,
  log: (message: string) => void,
  requestId: string | undefined,
): { status: number; body: ErrorEnvelope } {
  if (error instanceof ApiError) return { status: error.status, body: error.toEnvelope() };
  if (isDatabaseUnavailable(error)) {
    return { status: 503, body: errorEnvelope("service_unavailable", undefined, { cause: "data_path" }) };
  }
  const status = (error as { status?: unknown } | null)?.status;
  if (typeof status === "number" && status >= 400 && status < 500) {
    return { status: 400, body: errorEnvelope("invalid_request", "The request could not be read.") };
  }
  log(
    `unhandled error (request ${requestId ?? "without id"}): ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`,
  );
  return { status: 500, body: errorEnvelope("internal_error") };
}

function withRequestId(envelope: ErrorEnvelope, requestId: string): ErrorEnvelope {
  const { details } = envelope.error;
  const isObject = typeof details === "object" && details !== null && !Array.isArray(details);
  return {
    error: {
      ...envelope.error,
      details: isObject
        ? { ...details, requestId }
        : details === null || details === undefined
          ? { requestId }
          : { value: details, requestId },
    },
  };
}

export function errorHandler(log: (message: string) => void) {
  return (error: unknown, _req: Request, res: Response, _next: NextFunction): void => {
    const { status, body } = errorResponseOf(error, log, requestIdOf(res));
    res.status(status).json(body);
  };
}
