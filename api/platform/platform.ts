// What every route module is given: the route table (validation + OpenAPI), partner authentication,
// idempotency, and the use cases as one service object per context (services/index.ts).
import type { RequestHandler } from "express";
import type { Services } from "../../services";
import type { PartnerScope } from "../../services/partners/scopes";
import type { Idempotency } from "./idempotency";
import type { RouteTable } from "./openapi/routeTable";
import type { KeylessAdmission, KeylessCounter, PartnerAdmission, PublicWriteCounter } from "./partnerAuth";

export interface Platform {
  routes: RouteTable;
  services: Services;
  /** When this process started serving (GET /v1/health). */
  startedAt: Date;
  /** Middleware: a valid key for this host, within its rate limit, holding `scope` (any key when omitted). */
  requirePartner: (scope?: PartnerScope) => RequestHandler;
  /** The admission behind requirePartner, for direct routes (platform/directRoutes). */
  admitPartner: PartnerAdmission;
  /** The keyless admission (a key may be sent), for direct reads (platform/directRoutes). */
  admitKeyless: KeylessAdmission;
  /** Counts a call as keyless (per client address, in this process), whatever headers it carries. */
  countKeyless: KeylessCounter;
  /** Counts a call in its client address's keyless-write window ("public-write"), whatever its route's class. */
  countPublicWrite: PublicWriteCounter;
  /** Idempotent execution without Express objects, for direct routes. */
  idempotent: Idempotency["idempotent"];
  /** Milliseconds since the epoch (injectable for tests at minute boundaries). */
  now: () => number;
}
