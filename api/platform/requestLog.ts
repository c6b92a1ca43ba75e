// Request ids and the HTTP side of request logs. Every answer carries a Request-Id (also in error bodies'
// details.requestId and in the log lines about the request); an admitted key's answers also carry it as
// X-Request-Id, and are handed to the partners service's recorder (batched writes, off the
// response path) once sent. That partner-visible log keeps only method, path (no query string), route,
// status, latency, request id and time: never headers or bodies. The service's own debug line per request
// adds the headers, through the logger's redaction (telemetry/log.ts).
import { randomBytes } from "node:crypto";
import type { IncomingHttpHeaders, ServerResponse } from "node:http";
import type { NextFunction, Request, Response } from "express";
import type { PartnerContext, RequestLogEntry } from "../../services/partners";
import type { Logger } from "../../telemetry/log";
import { observeRequest } from "../../telemetry/metrics";

/** On every answer. */
export const REQUEST_ID_HEADER = "Request-Id";
/** On the answers of an admitted key, with the same id (the name partners' request logs have used). */
export const KEYED_REQUEST_ID_HEADER = "X-Request-Id";

// Random hex drawn in blocks: an id per answer (the keyless check included) then costs a slice, not a call
// into the CSPRNG and an encoding each time.
const ID_HEX_CHARS = 16;
const BLOCK_IDS = 512;
let idBlock = "";
let idOffset = 0;

export function newRequestId(): string {
  if (idOffset === idBlock.length) {
    idBlock = randomBytes((BLOCK_IDS * ID_HEX_CHARS) / 2).toString("hex");
    idOffset = 0;
  }
  const id = idBlock.slice(idOffset, idOffset + ID_HEX_CHARS);
  idOffset += ID_HEX_CHARS;
  return `req_${id}`;
}

/** Gives the request its id, sent as Request-Id whatever the answer. */
export function assignRequestId(res: ServerResponse): string {
  const requestId = newRequestId();
  res.setHeader(REQUEST_ID_HEADER, requestId);
  return requestId;
}

/** The id `assignRequestId` gave the request (undefined for an answer given before, by the HTTP server). */
export function requestIdOf(res: ServerResponse): string | undefined {
  const id = res.getHeader(REQUEST_ID_HEADER);
  return typeof id === "string" ? id : undefined;
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

/** Where answered requests are reported: the partners' request log, its clock, the service's debug lines. */
export interface RequestReporter {
  record: RecordRequest;
  /** Dates the partners' log lines. */
  now: () => number;
  log: Logger;
}

export interface AnsweredRequest {
  method: string;
  url: string | undefined;
  /** The declared path (`/v1/webhooks/:id`), or "(no route)". */
  route: string;
  /** The metrics label: `POST /api/v1/...`, or `GET (unmatched)`. */
  label: string;
  status: number;
  elapsedMs: number;
  requestId: string | undefined;
  headers: IncomingHttpHeaders;
  /** The caller, once its key was admitted: the answer goes to its partner's request log. */
  partner: PartnerContext | undefined;
}

/** Observes an answer's latency by route (telemetry/metrics), logs it at debug level, records a keyed one. */
export function reportAnswered(reporter: RequestReporter, answered: AnsweredRequest): void {
  observeRequest(answered.label, answered.status, answered.elapsedMs / 1000);
  // Headers go through the logger's redaction (Authorization, cookies) and secret scrub like every field.
  if (reporter.log.isLevelEnabled("debug")) {
    reporter.log.debug(
      {
        requestId: answered.requestId,
        method: answered.method,
        path: pathOf(answered.url),
        route: answered.route,
        status: answered.status,
        ms: Math.round(answered.elapsedMs * 100) / 100,
        headers: answered.headers,
      },
      "request",
    );
  }
  if (answered.partner === undefined || answered.requestId === undefined) return;
  reporter.record(
    logEntryOf(
      answered.partner,
      {
        method: answered.method,
        path: pathOf(answered.url),
        route: answered.route,
        requestId: answered.requestId,
      },
      answered.status,
      answered.elapsedMs,
      new Date(reporter.now()),
    ),
  );
}

/** Express middleware for what Express answers (the web pages, unknown paths): reportAnswered once sent. */
export function requestLogging(reporter: RequestReporter) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const started = performance.now();
    res.on("finish", () => {
      const matched = typeof req.route?.path === "string";
      reportAnswered(reporter, {
        method: req.method,
        url: req.originalUrl,
        route: matched ? req.route.path : "(no route)",
        label: matched ? `${req.method} ${req.baseUrl}${req.route.path}` : `${req.method} (unmatched)`,
        status: res.statusCode,
        elapsedMs: performance.now() - started,
        requestId: requestIdOf(res),
        headers: req.headers,
        partner: undefined,
      });
    });
    next();
  };
}
