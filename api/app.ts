// The HTTP face of the service. Routes gather records and format answers; decisions live in core/.
import type { IncomingMessage, ServerResponse } from "node:http";
import express, { type NextFunction, type Request, type Response } from "express";
import type { Pool } from "pg";
import type { RegistryCatalogue } from "../chains/registryClient";
import { parseConfig } from "../config";
import { createServices, type DecisionOptions } from "../services";
import type { PartnerMailOptions } from "../services/partners";
import { pruneRateWindows } from "../services/partners/apiKeyStore";
import { RATE_WINDOW_SECONDS } from "../services/partners/rateWindow";
import { pruneRequestLog, REQUEST_LOG_PRUNE_MINUTES } from "../services/partners/requestLog";
import type { WebhookSettings } from "../services/webhooks";
import { sharedInFlight } from "../storage/sharedInFlight";
import { type Logger, lineSink } from "../telemetry/log";
import { type CorsLayer, corsLayer } from "./platform/cors";
import { errorHandler, notFound } from "./platform/errors";
import { type HostLists, hostClassOf, hostEnvironmentOf } from "./platform/hosts";
import { idempotency } from "./platform/idempotency";
import { readRequestInput } from "./platform/inputRule";
import { RouteTable } from "./platform/openapi/routeTable";
import { type AccessAdmission, type PublicWriteCounter, partnerGuard } from "./platform/partnerAuth";
import type { Platform } from "./platform/platform";
import { assignRequestId, requestLogging } from "./platform/requestLog";
import { apiListener } from "./platform/requestSequence";
import { responseVersion } from "./platform/responseVersionMiddleware";
import { securityHeaders } from "./platform/securityHeaders";
import { registerChainRoutes } from "./routes/chains";
import { registerDisputeRoutes } from "./routes/disputes";
import { registerHealthRoutes } from "./routes/health";
import { registerIdentityRoutes } from "./routes/identity";
import { registerOpenApiRoute } from "./routes/openapi";
import { registerPartnerRoutes } from "./routes/partners";
import { registerProtectedIdentityRoutes } from "./routes/protectedIdentities";
import { registerReservationListRoutes } from "./routes/reservationList";
import { registerReservationRoutes } from "./routes/reservations";
import { registerRevenueRoutes } from "./routes/revenue";
import {
  registerDiagnosticsRoutes,
  registerSandboxHoldRoutes,
  registerSandboxKeyRoutes,
} from "./routes/sandbox";
import { registerSigningKeyRoutes } from "./routes/signingKeys";
import { registerSolanaHelperRoutes } from "./routes/solanaHelpers";
import { registerVerifyRoutes } from "./routes/verify";
import { registerWebhookRoutes } from "./routes/webhooks";
import { webPages } from "./web/pages";

export interface ApiDependencies {
  pool: Pool;
  startedAt: Date;
  /** The API's logger: failures, and at debug level a line per request. */
  log: Logger;
  /** Host lists of the three environments; defaults to the configuration defaults. */
  hosts?: HostLists;
  /** Seals the signing secrets of self-serve sandbox keys; without it POST /v1/sandbox/keys answers 503. */
  masterKey?: Buffer;
  /** Per-minute limit of keyless identity checks per client address, counted in each process (0: off). Default 120. */
  keylessRateLimitPerMinute?: number;
  /** Per-minute limit of keyless writes (disputes) per client address, counted in each process (0: off). Default 10. */
  publicWriteRateLimitPerMinute?: number;
  /** Clock in ms since the epoch; defaults to Date.now. */
  now?: () => number;
  /** The chains' registries (chains/catalogue.ts); without them reservation and Solana helper routes answer 503. */
  registries?: RegistryCatalogue;
  /** Decision settings: chains, freshness bound, data-path timeout (services/dataPath.ts). */
  decisions?: DecisionOptions;
  /** The webhook receiver rule's local exception and DNS (services/webhooks); default: public HTTPS only. */
  webhooks?: WebhookSettings;
  /** Partner mail (services/mail); without it sandbox sign-up answers 503 mail_unavailable. */
  mail?: PartnerMailOptions;
}

/** Largest JSON body accepted; every documented request is far smaller. */
export const BODY_LIMIT_BYTES = 64 * 1024;
export const DEFAULT_KEYLESS_RATE_LIMIT = 120;
export const DEFAULT_PUBLIC_WRITE_RATE_LIMIT = 10;

/** Sets `res.locals.hostClass` and `res.locals.hostEnvironment` from the Host header, for the web pages. */
function hostEnvironment(hosts: HostLists) {
  return (req: Request, res: Response, next: NextFunction): void => {
    res.locals.hostClass = hostClassOf(req.headers.host, hosts);
    res.locals.hostEnvironment = hostEnvironmentOf(res.locals.hostClass);
    next();
  };
}

/**
 * The per-request tick: once per clock minute per process, drops finished rate windows and expired idempotency
 * records; every tenth minute, apart from those, request log lines and usage counts past their retention.
 */
function housekeeping(
  deps: ApiDependencies,
  now: () => number,
  pruneIdempotency: () => Promise<void>,
): () => void {
  const log = deps.log.child({ component: "housekeeping" });
  let lastMinute = 0;
  // One run at a time: on a frozen database a run waits until it thaws, and the next minutes' ticks must not
  // each take more pool connections behind it.
  const prune = sharedInFlight(async () => {
    const minute = lastMinute;
    await Promise.all([
      pruneRateWindows(deps.pool, (minute - 1) * RATE_WINDOW_SECONDS * 1000),
      pruneIdempotency(),
    ]);
  });
  // Retention is counted in days and a key's 1,000 lines: a slower, separate run, so it never holds up the
  // rate windows' pruning.
  const pruneLogs = sharedInFlight(() => pruneRequestLog(deps.pool, lastMinute * RATE_WINDOW_SECONDS * 1000));
  return () => {
    const minute = Math.floor(now() / (RATE_WINDOW_SECONDS * 1000));
    if (minute !== lastMinute) {
      lastMinute = minute;
      prune().catch((error: Error) => log.warn(`housekeeping failed: ${error.message}`));
      if (minute % REQUEST_LOG_PRUNE_MINUTES === 0) {
        pruneLogs().catch((error: Error) => log.warn(`request log pruning failed: ${error.message}`));
      }
    }
  };
}

/** The one input rule (platform/inputRule) for what Express answers too: a page, or an unknown path's 404. */
async function requestInput(req: Request, _res: Response, next: NextFunction): Promise<void> {
  req.body = await readRequestInput(req, BODY_LIMIT_BYTES);
  next();
}

/** The platform the route modules register on, with what serves their routes. */
interface ServedPlatform {
  platform: Platform;
  admit: AccessAdmission;
  countPublicWrite: PublicWriteCounter;
  cors: CorsLayer;
}

function createPlatform(deps: ApiDependencies): ServedPlatform {
  const now = deps.now ?? Date.now;
  const auth = partnerGuard({
    pool: deps.pool,
    now,
    keylessLimitPerMinute: deps.keylessRateLimitPerMinute ?? DEFAULT_KEYLESS_RATE_LIMIT,
    publicWriteLimitPerMinute: deps.publicWriteRateLimitPerMinute ?? DEFAULT_PUBLIC_WRITE_RATE_LIMIT,
  });
  const { idempotent } = idempotency(deps.pool, now);
  const services = createServices({
    pool: deps.pool,
    masterKey: deps.masterKey,
    now,
    decisions: deps.decisions,
    registries: deps.registries,
    webhooks: deps.webhooks,
    mail: deps.mail,
    log: lineSink(deps.log.child({ component: "services" }), "warn"),
  });
  const cors = corsLayer({
    embedOriginAllowed: (origin) => services.reservations.embedOriginAllowed(origin),
  });
  const platform: Platform = {
    routes: new RouteTable(),
    services,
    startedAt: deps.startedAt,
    countKeyless: auth.countKeyless,
    idempotent,
    now,
  };
  return { platform, admit: auth.admit, countPublicWrite: auth.countPublicWrite, cors };
}

/** Registers one area's routes on the platform (see docs/api.md). */
export type RouteModule = (platform: Platform) => void;

const ROUTE_MODULES: readonly RouteModule[] = [
  registerHealthRoutes,
  registerChainRoutes,
  registerSigningKeyRoutes,
  registerVerifyRoutes,
  registerProtectedIdentityRoutes,
  registerReservationListRoutes,
  registerSandboxKeyRoutes,
  registerDiagnosticsRoutes,
  registerPartnerRoutes,
  registerSolanaHelperRoutes,
  registerIdentityRoutes,
  registerSandboxHoldRoutes,
  registerReservationRoutes,
  registerWebhookRoutes,
  registerRevenueRoutes,
  registerDisputeRoutes,
];

/** The service's request listener: the API routes' one request sequence, then Express for the pages. */
export interface ApiHandler {
  (req: IncomingMessage, res: ServerResponse): void;
  /**
   * Writes what the app queued off the response path (the partners' request log); the server calls it once it
   * has stopped answering, so a stopping replica loses none of its answered requests' lines.
   */
  drain(): Promise<void>;
}

/** The app; `extraRoutes` lets tests mount fixture routes through the same platform. */
export function createApp(deps: ApiDependencies, extraRoutes: readonly RouteModule[] = []): ApiHandler {
  const { platform, admit, countPublicWrite, cors } = createPlatform(deps);
  const failures = lineSink(deps.log.child({ component: "http" }), "error");
  const hosts = deps.hosts ?? parseConfig({}).hosts;
  const tick = housekeeping(deps, platform.now, idempotency(deps.pool, platform.now).pruneExpired);
  const reporter = {
    record: platform.services.partners.recordRequest,
    now: platform.now,
    log: deps.log.child({ component: "http" }),
  };
  for (const register of [...ROUTE_MODULES, ...extraRoutes, registerOpenApiRoute]) register(platform);
  const api = apiListener({
    routes: platform.routes,
    cors,
    admit,
    countPublicWrite,
    hosts,
    bodyLimitBytes: BODY_LIMIT_BYTES,
    housekeeping: tick,
    log: failures,
    reporter,
  });

  // The web pages, and the 404 of any other path.
  const app = express();
  app.disable("x-powered-by");
  app.set("etag", false);
  app.set("query parser", "simple");
  app.use(securityHeaders);
  app.use(responseVersion);
  app.use(hostEnvironment(hosts));
  app.use((_req, _res, next) => {
    tick();
    next();
  });
  app.use(requestLogging(reporter));
  app.use(requestInput);
  app.use(webPages(platform, failures));
  app.use(notFound);
  app.use(errorHandler(failures));

  const handler = (req: IncomingMessage, res: ServerResponse) => {
    if (api(req, res)) return;
    assignRequestId(res);
    app(req, res);
  };
  return Object.assign(handler, { drain: () => platform.services.partners.drainRequestLog() });
}
