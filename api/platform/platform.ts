// What every route module is given: the route table (validation + OpenAPI), partner authentication,
// idempotency, and the service's dependencies.
import type { RequestHandler } from "express";
import type { ApiDependencies } from "../app";
import type { PartnerScope } from "../keys/scopes";
import type { RouteTable } from "../openapi/routeTable";
import type { Idempotency } from "./idempotency";
import type { PartnerAdmission } from "./partnerAuth";

export interface Platform {
  deps: ApiDependencies;
  routes: RouteTable;
  /** Middleware: a valid key for this host, within its rate limit, holding `scope` (any key when omitted). */
  requirePartner: (scope?: PartnerScope) => RequestHandler;
  /** The admission behind requirePartner, for direct routes (platform/directRoutes). */
  admitPartner: PartnerAdmission;
  runIdempotent: Idempotency["runIdempotent"];
  /** Idempotent execution without Express objects, for direct routes. */
  idempotent: Idempotency["idempotent"];
  /** Milliseconds since the epoch (injectable for tests at minute boundaries). */
  now: () => number;
}
