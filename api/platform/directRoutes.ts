// Serves the routes declared with RouteTable.directRoute and directRead straight from node:http. Launch
// validation and the identity check are the hot paths, and Express's middleware chain, body parser and response
// helpers cost about a third of validation's CPU and half of the check's. The steps are the ones the Express
// routes take, from the same pieces: host rule, body and input rule, admission (a partner key, or for a read an
// optional key or the keyless count) with its rate headers, input validation, error envelope, security
// headers, CORS of a keyless read, responseVersion.
import type { IncomingMessage, ServerResponse } from "node:http";
import { ServiceError } from "../../core/errors/serviceError";
import type { PartnerContext } from "../../services/partners";
import type { Authenticator } from "../../services/partners/keyAuthentication";
import { observeRequest } from "../../telemetry/metrics";
import { ANY_ORIGIN_HEADERS } from "./cors";
import { errorResponseOf } from "./errors";
import { type HostLists, hostClassOf, hostEnvironmentOf } from "./hosts";
import { queryParametersOf, readRequestInput } from "./inputRule";
import { sendJson } from "./jsonResponse";
import type { DirectResult, DirectRoute, RouteTable } from "./openapi/routeTable";
import { isDirectRead, parsed } from "./openapi/routeTable";
import type { KeylessAdmission, PartnerAdmission, PublicWriteCounter } from "./partnerAuth";
import {
  KEYED_REQUEST_ID_HEADER,
  logEntryOf,
  newRequestId,
  pathOf,
  REQUEST_ID_HEADER,
  type RecordRequest,
} from "./requestLog";

export interface DirectRouteOptions {
  routes: RouteTable;
  admitPartner: PartnerAdmission;
  admitKeyless: KeylessAdmission;
  /** The keyless-write window, for a read that also writes (DirectReadInput.countPublicWrite). */
  countPublicWrite: PublicWriteCounter;
  hosts: HostLists;
  bodyLimitBytes: number;
  /** The per-request housekeeping tick the Express routes also run. */
  housekeeping: () => void;
  log: (message: string) => void;
  /** Takes the log line of each answered request of an admitted key. */
  recordRequest: RecordRequest;
  /** Dates log lines. */
  now: () => number;
}

/** Serves a request when it is for a direct route (true), else leaves it untouched for Express (false). */
export type DirectRouteListener = (req: IncomingMessage, res: ServerResponse) => boolean;

/** `METHOD /path` as Express matches it: case-insensitive, one trailing slash ignored, query aside. */
function routeKeyOf(req: IncomingMessage): string {
  const url = req.url ?? "/";
  const query = url.indexOf("?");
  let path = query === -1 ? url : url.slice(0, query);
  if (path.length > 1 && path.endsWith("/")) path = path.slice(0, -1);
  return `${req.method} ${path}`.toLowerCase();
}

/** A handler answered without admitting its caller: a bug, and never an answer to give. */
class UnadmittedAnswerError extends ServiceError {
  constructor(route: string) {
    super(`The direct route ${route} answered without admitting its caller.`);
  }
}

/** The validated input; when it is invalid the caller is admitted first, as on the Express routes. */
async function validatedAfterAdmission<T>(validate: () => T, admit: () => Promise<unknown>): Promise<T> {
  try {
    return validate();
  } catch (error) {
    await admit();
    throw error;
  }
}

async function serve(
  options: DirectRouteOptions,
  direct: DirectRoute,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const started = performance.now();
  const requestId = newRequestId();
  // Every header goes into writeHead's one list: a header set on `res` first (setHeader) sends writeHead
  // down Node's slow path, which removes and appends each field of the list again (~2 µs an answer).
  const headers: Record<string, string> = { [REQUEST_ID_HEADER]: requestId };
  let caller: { partner: PartnerContext; requestId: string } | undefined;
  let status = 500;
  try {
    options.housekeeping();
    const hostClass = hostClassOf(req.headers.host, options.hosts);
    const rawBody = await readRequestInput(req, options.bodyLimitBytes);
    let admitted = false;
    const setHeader = (name: string, value: string) => {
      headers[name] = value;
    };
    const seen = (partner: PartnerContext) => {
      caller = { partner, requestId };
      headers[KEYED_REQUEST_ID_HEADER] = requestId;
    };
    const countPublicWrite = () => options.countPublicWrite(hostClass, req.socket.remoteAddress, setHeader);
    let result: DirectResult;
    if (isDirectRead(direct)) {
      Object.assign(headers, ANY_ORIGIN_HEADERS);
      const admit = async (authenticator?: Authenticator) => {
        const { partner } = await options.admitKeyless({
          authorization: req.headers.authorization,
          hostClass,
          clientAddress: req.socket.remoteAddress,
          setHeader,
          authenticator,
          seen,
        });
        admitted = true;
        return partner;
      };
      const query = await validatedAfterAdmission(
        () => parsed(direct.spec, direct.spec.query, queryParametersOf(req.url) ?? {}, "query"),
        admit,
      );
      result = await direct.handler({
        query,
        environment: hostEnvironmentOf(hostClass),
        admit,
        countPublicWrite,
      });
    } else {
      const { scope } = direct.spec.access;
      const admit = async (authenticator?: Authenticator) => {
        const { partner } = await options.admitPartner({
          authorization: req.headers.authorization,
          hostClass,
          scope,
          setHeader,
          authenticator,
          seen,
        });
        admitted = true;
        return partner;
      };
      const body = await validatedAfterAdmission(
        () => parsed(direct.spec, direct.spec.body, rawBody ?? {}, "body"),
        admit,
      );
      result = await direct.handler({ body, rawBody, headers: req.headers, admit, route: direct.route });
    }
    if (!admitted) throw new UnadmittedAnswerError(direct.route);
    status = result.status;
    sendJson(res, result.status, result.body, { ...headers, ...result.headers });
  } catch (error) {
    const refusal = errorResponseOf(error, options.log, requestId);
    status = refusal.status;
    if (!res.headersSent) sendJson(res, refusal.status, refusal.body, headers);
  }
  const elapsedMs = performance.now() - started;
  observeRequest(direct.route, status, elapsedMs / 1000);
  if (caller !== undefined) {
    options.recordRequest(
      logEntryOf(
        caller.partner,
        {
          method: req.method ?? "POST",
          path: pathOf(req.url),
          route: direct.spec.path,
          requestId: caller.requestId,
        },
        status,
        elapsedMs,
        new Date(options.now()),
      ),
    );
  }
}

export function directRouteListener(options: DirectRouteOptions): DirectRouteListener {
  return (req, res) => {
    const direct = options.routes.direct.get(routeKeyOf(req));
    if (direct === undefined) return false;
    void serve(options, direct, req, res);
    return true;
  };
}
