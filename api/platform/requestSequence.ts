// The one request sequence of every API route, served straight from node:http: request id, housekeeping tick,
// host class, CORS, body and input rule, input validation, admission by the route's access, the handler, then
// the answer with the security headers and `responseVersion`, or the error envelope; metrics and the request
// logs once answered. Express serves only the web pages and unknown paths (api/app.ts): on the API its
// middleware chain, body parser and response helpers cost a third of validation's CPU and half of the check's
// (docs/performance.md, `npm run bench -- api`).
import type { IncomingMessage, ServerResponse } from "node:http";
import { ApiError } from "../../core/errors/catalogue";
import type { PartnerContext } from "../../services/partners";
import type { KeyedRead } from "../../services/partners/keyAuthentication";
import type { CorsLayer, PathCors } from "./cors";
import { errorResponseOf } from "./errors";
import { type HostLists, hostClassOf, hostEnvironmentOf } from "./hosts";
import { queryParametersOf, readRequestInput } from "./inputRule";
import { sendEmpty, sendJson } from "./jsonResponse";
import { type DeclaredRoute, parsed, type RouteMatch, type RouteTable } from "./openapi/routeTable";
import type { AccessAdmission, PublicWriteCounter } from "./partnerAuth";
import {
  KEYED_REQUEST_ID_HEADER,
  newRequestId,
  REQUEST_ID_HEADER,
  type RequestReporter,
  reportAnswered,
} from "./requestLog";

export interface RequestSequenceOptions {
  routes: RouteTable;
  cors: CorsLayer;
  admit: AccessAdmission;
  /** The keyless-write window, for a read that also writes (RouteInput.countPublicWrite). */
  countPublicWrite: PublicWriteCounter;
  hosts: HostLists;
  bodyLimitBytes: number;
  /** The per-request housekeeping tick (api/app.ts). */
  housekeeping: () => void;
  /** Logs unexpected failures. */
  log: (message: string) => void;
  reporter: RequestReporter;
}

/** Serves a request when its path is an API route's (true), else leaves it untouched (false). */
export type ApiListener = (req: IncomingMessage, res: ServerResponse) => boolean;

interface Answer {
  status: number;
  /** Undefined for an answer without a body. */
  body: object | undefined;
  headers?: Readonly<Record<string, string>> | undefined;
  /** Sent without `responseVersion` (RouteResponse.versioned). */
  asIs?: boolean;
}

/** What one request's steps share: its id and the headers its answer will carry, whatever it is. */
interface Exchange {
  requestId: string;
  // Every header goes into writeHead's one list: a header set on `res` first (setHeader) sends writeHead down
  // Node's slow path, which removes and appends each field of the list again (~2 µs an answer).
  headers: Record<string, string>;
  setHeader: (name: string, value: string) => void;
  /** The admitted caller, told as soon as its key is known (refused calls of a known key are logged too). */
  partner: PartnerContext | undefined;
  seen: (partner: PartnerContext) => void;
}

function exchangeOf(): Exchange {
  const requestId = newRequestId();
  const headers: Record<string, string> = { [REQUEST_ID_HEADER]: requestId };
  const exchange: Exchange = {
    requestId,
    headers,
    setHeader: (name, value) => {
      headers[name] = value;
    },
    partner: undefined,
    seen: (partner) => {
      exchange.partner = partner;
      headers[KEYED_REQUEST_ID_HEADER] = requestId;
    },
  };
  return exchange;
}

/** Runs `steps`, writes their answer or the error envelope, and reports the request once answered. */
async function answer(
  options: RequestSequenceOptions,
  req: IncomingMessage,
  res: ServerResponse,
  route: { path: string; label: string },
  steps: (exchange: Exchange) => Promise<Answer>,
): Promise<void> {
  const started = performance.now();
  const exchange = exchangeOf();
  let status: number;
  try {
    options.housekeeping();
    const answered = await steps(exchange);
    status = answered.status;
    const headers =
      answered.headers === undefined ? exchange.headers : { ...exchange.headers, ...answered.headers };
    if (answered.body === undefined) sendEmpty(res, status, headers);
    else sendJson(res, status, answered.body, headers, answered.asIs);
  } catch (error) {
    const refusal = errorResponseOf(error, options.log, exchange.requestId);
    status = refusal.status;
    if (!res.headersSent) sendJson(res, refusal.status, refusal.body, exchange.headers);
  }
  reportAnswered(options.reporter, {
    method: req.method ?? "GET",
    url: req.url,
    route: route.path,
    label: route.label,
    status,
    elapsedMs: performance.now() - started,
    requestId: exchange.requestId,
    headers: req.headers,
    partner: exchange.partner,
  });
}

/** The path's parameters decoded; a malformed percent-encoding is the caller's to fix. */
function decodedParams(encoded: Readonly<Record<string, string>>): Record<string, string> {
  const params: Record<string, string> = {};
  for (const name in encoded) {
    const value = encoded[name] as string;
    try {
      params[name] = decodeURIComponent(value);
    } catch {
      throw new ApiError(
        "invalid_request",
        `The path's ${name} is not valid percent-encoding: ${value.slice(0, 64)}.`,
        {
          in: "path",
          issues: [{ path: name, message: "malformed percent-encoding" }],
        },
      );
    }
  }
  return params;
}

const NO_INPUT = {};

async function routeAnswer(
  options: RequestSequenceOptions,
  { spec, handler, route, corsClass }: DeclaredRoute,
  encodedParams: Readonly<Record<string, string>>,
  req: IncomingMessage,
  exchange: Exchange,
): Promise<Answer> {
  const hostClass = hostClassOf(req.headers.host, options.hosts);
  const environment = hostEnvironmentOf(hostClass);
  await options.cors.actual(corsClass, req.headers, exchange.setHeader);
  const rawBody = await readRequestInput(req, options.bodyLimitBytes);
  // Admission answers before the input is judged: a caller without a valid key learns only that.
  let input: { query: unknown; body: unknown; params: Record<string, string> } | undefined;
  let keyed: KeyedRead<unknown> | undefined;
  let refusal: unknown;
  try {
    const query = spec.query
      ? parsed(spec, spec.query, queryParametersOf(req.url) ?? NO_INPUT, "query")
      : NO_INPUT;
    const body = spec.body ? parsed(spec, spec.body, rawBody ?? NO_INPUT, "body") : NO_INPUT;
    input = { query, body, params: decodedParams(encodedParams) };
    keyed = spec.readWithKey?.({ query, body, environment });
  } catch (error) {
    refusal = error;
  }
  const clientAddress = req.socket.remoteAddress;
  const call = await options.admit(spec.access, {
    authorization: req.headers.authorization,
    hostClass,
    clientAddress,
    setHeader: exchange.setHeader,
    authenticator: keyed?.authenticator,
    seen: exchange.seen,
  });
  if (input === undefined || refusal !== undefined) throw refusal;
  const result = await handler({
    ...input,
    rawBody,
    route,
    headers: req.headers,
    partner: call.partner,
    environment,
    hostClass,
    rate: call.rate,
    countPublicWrite: () => {
      options.countPublicWrite(hostClass, clientAddress, exchange.setHeader);
    },
    keyedRead: keyed?.result(),
  });
  return { ...result, asIs: spec.responses[result.status]?.versioned === false };
}

async function preflightAnswer(
  options: RequestSequenceOptions,
  path: string,
  methods: PathCors,
  req: IncomingMessage,
): Promise<Answer> {
  return { status: 204, body: undefined, headers: await options.cors.preflight(path, methods, req.headers) };
}

/** Well-known URIs are looked up at the host root: every `/api/.well-known/` route is served there too. */
function apiPathOf(url: string | undefined): string {
  const raw = url ?? "/";
  const query = raw.indexOf("?");
  const path = query === -1 ? raw : raw.slice(0, query);
  return path.startsWith("/.well-known/") ? `/api${path}` : path;
}

export function apiListener(options: RequestSequenceOptions): ApiListener {
  return (req, res) => {
    const path = apiPathOf(req.url);
    if (req.method === "OPTIONS") {
      const cors = options.routes.corsOf(path);
      if (cors === undefined) return false;
      const route = { path: cors.path, label: `OPTIONS /api${cors.path}` };
      void answer(options, req, res, route, () =>
        preflightAnswer(options, `/api${cors.path}`, cors.methods, req),
      );
      return true;
    }
    const match: RouteMatch | undefined = options.routes.match(req.method ?? "GET", path);
    if (match === undefined) return false;
    const { route, encodedParams } = match;
    void answer(options, req, res, { path: route.spec.path, label: route.route }, (exchange) =>
      routeAnswer(options, route, encodedParams, req, exchange),
    );
    return true;
  };
}
