// The HTTP side of request logs: every answered request of an admitted key carries an X-Request-Id and is
// handed to the partners service's recorder (batched writes, off the response path) once the answer is sent.
// Only method, path (no query string), route, status, latency, request id and time: never headers or bodies.
import { randomBytes } from "node:crypto";
import type { NextFunction, Request, Response } from "express";
import type { PartnerContext, RequestLogEntry } from "../../services/partners";

declare global {
  namespace Express {
    interface Locals {
      /** The id of a keyed request, sent as X-Request-Id and kept in its log line. */
      requestId?: string;
    }
  }
}

export const REQUEST_ID_HEADER = "X-Request-Id";

export function newRequestId(): string {
  return `req_${randomBytes(8).toString("hex")}`;
}

// Anything shaped like one of our secrets (keys, signing secrets, verification tokens) a caller put in a path.
const SECRET_SHAPED = /(svc_[a-z]+_|evt_)[A-Za-z0-9_-]+/g;

/**
 * The path as requested, without its query string (a query may carry anything a partner typed) and with
 * anything shaped like a key or token masked, so a pasted secret never lands in a log.
 */
export function pathOf(url: string | undefined): string {
  const raw = url ?? "/";
  const query = raw.indexOf("?");
  return (query === -1 ? raw : raw.slice(0, query)).replace(SECRET_SHAPED, "$1…");
}

export type RecordRequest = (entry: RequestLogEntry) => void;

/** The log entry of an answered keyed request. */
export function logEntryOf(
  partner: PartnerContext,
  request: { method: string; path: string; route: string; requestId: string },
  status: number,
  latencyMs: number,
  at: Date,
): RequestLogEntry {
  return {
    keyId: partner.keyId,
    partnerId: partner.partnerId,
    method: request.method,
    path: request.path,
    route: `${request.method} ${request.route}`,
    status,
    latencyMs,
    requestId: request.requestId,
    at,
  };
}

/** Express middleware: records each request whose key was admitted, once its answer is sent; `now` dates it. */
export function requestLogging(record: RecordRequest, now: () => number) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const started = performance.now();
    res.on("finish", () => {
      const partner = res.locals.partner;
      const requestId = res.locals.requestId;
      if (partner === undefined || requestId === undefined) return;
      const route = typeof req.route?.path === "string" ? req.route.path : "(no route)";
      record(
        logEntryOf(
          partner,
          { method: req.method, path: pathOf(req.originalUrl), route, requestId },
          res.statusCode,
          performance.now() - started,
          new Date(now()),
        ),
      );
    });
    next();
  };
}
