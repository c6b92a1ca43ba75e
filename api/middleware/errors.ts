import type { NextFunction, Request, Response } from "express";
import { HttpError } from "../httpError";

export function notFound(req: Request, _res: Response, next: NextFunction): void {
  next(
    new HttpError(
      404,
      "not_found",
      `No route ${req.method} ${req.path}. The API lives under /api/v1; see GET /api/v1/openapi.`,
    ),
  );
}

/** Body-parser failures carry a `type`; they are the client's fault and must never read as a 500. */
function clientErrorOf(error: { type?: string; status?: number; limit?: number }): HttpError | undefined {
  switch (error.type) {
    case "entity.parse.failed":
      return new HttpError(
        400,
        "invalid_request",
        "The request body is not valid JSON. Send a JSON object with Content-Type: application/json.",
      );
    case "entity.too.large":
      return new HttpError(
        413,
        "payload_too_large",
        `The request body is larger than the ${error.limit} bytes this API accepts.`,
      );
    case "encoding.unsupported":
    case "charset.unsupported":
      return new HttpError(
        415,
        "unsupported_media_type",
        "Send the body as UTF-8 JSON (Content-Type: application/json; charset=utf-8).",
      );
    case "request.aborted":
      return new HttpError(400, "invalid_request", "The request body ended early.");
    default:
      return error.status && error.status >= 400 && error.status < 500
        ? new HttpError(error.status, "invalid_request", "The request could not be read.")
        : undefined;
  }
}

export function errorHandler(log: (message: string) => void) {
  return (error: unknown, _req: Request, res: Response, _next: NextFunction): void => {
    const known = error instanceof HttpError ? error : clientErrorOf(error as { type?: string });
    if (known) {
      res
        .status(known.status)
        .json({ error: { code: known.code, message: known.message, details: known.details } });
      return;
    }
    // Unexpected failures are logged by name and message only: request data may hold secrets.
    log(`unhandled error: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`);
    res.status(500).json({
      error: {
        code: "internal_error",
        message: "Something went wrong on our side. Retry later; treat it as do-not-launch.",
        details: null,
      },
    });
  };
}
