// What every route module is given: the route table (validation + OpenAPI), idempotency, and the use cases as
// one service object per context (services/index.ts).
import type { Services } from "../../services";
import type { Idempotency } from "./idempotency";
import type { RouteTable } from "./openapi/routeTable";
import type { KeylessCounter } from "./partnerAuth";

export interface Platform {
  routes: RouteTable;
  services: Services;
  /** When this process started serving (GET /v1/health). */
  startedAt: Date;
  /** Counts a web page's call as keyless (per client address, in this process), whatever headers it carries. */
  countKeyless: KeylessCounter;
  /** Runs a keyed call once per Idempotency-Key (api/platform/idempotency.ts). */
  idempotent: Idempotency["idempotent"];
  /** Milliseconds since the epoch (injectable for tests at minute boundaries). */
  now: () => number;
}
