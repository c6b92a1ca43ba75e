// Endpoints with nothing to do cost the webhook job nothing (issue 45: "the claim no slower with 5,000 enabled
// endpoints than with 5"). Beside thousands of other partners' endpoints, a claim reads webhook_endpoints by
// primary key only, and a fan-out of one partner's events visits that partner's endpoints only. Plans are
// checked as Postgres makes them: the custom one (an unnamed statement) and the generic one a named statement
// settles on.
import { randomBytes } from "node:crypto";
import { expect } from "chai";
import { createSecretBox } from "../../../core/secrets/secretBox";
import { webhooksService } from "../../../services/webhooks";
import { CLAIM_SQL, claimDueDeliveries, DELIVERY_LEASE_MS } from "../../../services/webhooks/claims";
import { FAN_OUT_SQL, fanOutEvents } from "../../../services/webhooks/fanOut";
import { appendDomainEvents } from "../../../storage/domainEvents";
import { withTransaction } from "../../../storage/transaction";
import { planOf, rowsVisited, scansOf } from "../../support/queryPlan";
import { createTestDatabase, type TestDatabase } from "../../support/testDatabase";
import { insertIdleEndpoints, tableLookup } from "./support";

const IDLE_ENDPOINTS = 3000;
const OWNER = { partnerId: "partner_busy", environment: "production" } as const;
const URL = "http://127.0.0.1:9/busy";
const CLAIM_TYPES = ["timestamptz", "text", "timestamptz", "int", "int", "text[]", "text", "int"];
const FAN_OUT_TYPES = ["int", "timestamptz"];

function claimValues(at: Date): unknown[] {
  return [at, "token", new Date(at.getTime() + DELIVERY_LEASE_MS), 4, 64, [], "holder", 32];
}

describe("webhooks: thousands of idle endpoints", () => {
  let db: TestDatabase;

  async function emit(count: number): Promise<void> {
    await withTransaction(db.pool, (client) =>
      appendDomainEvents(
        client,
        Array.from({ length: count }, (_, index) => ({
          type: "launch.reported" as const,
          environment: "production" as const,
          partnerId: OWNER.partnerId,
          payload: { index },
        })),
      ),
    );
  }

  before(async () => {
    db = await createTestDatabase();
    await webhooksService(db.pool, createSecretBox(randomBytes(32)), Date.now, {
      allowLocalReceivers: true,
      lookup: tableLookup({}),
    }).create(OWNER, { url: URL });
    await insertIdleEndpoints(db.pool, IDLE_ENDPOINTS, true);
    await db.pool.query("ANALYZE webhook_endpoints");
  });
  after(async () => {
    await db?.close();
  });

  describe("a fan-out of one partner's events", () => {
    before(async () => {
      await emit(20);
      await db.pool.query("ANALYZE domain_events");
    });

    for (const generic of [false, true]) {
      it(`visits that partner's endpoints only (${generic ? "generic" : "custom"} plan)`, async () => {
        const plan = await planOf(db.pool, FAN_OUT_SQL, [500, new Date()], {
          analyze: true,
          ...(generic ? { generic: { types: FAN_OUT_TYPES } } : {}),
        });
        const visited = rowsVisited(plan, "webhook_endpoints");
        expect(visited).to.be.greaterThan(0);
        expect(visited).to.be.at.most(20);
      });
    }

    it("creates one delivery per event, to that partner's endpoint", async () => {
      expect(await fanOutEvents(db.pool, new Date(), 500)).to.deep.equal({ events: 20, deliveries: 20 });
      const { rows } = await db.pool.query<{ endpoint_id: string }>(
        "SELECT DISTINCT endpoint_id FROM webhook_deliveries",
      );
      expect(rows.map((row) => row.endpoint_id)).to.have.length(1);
      expect(rows[0]?.endpoint_id).to.not.match(/^whe_idle_/);
    });
  });

  describe("a claim", () => {
    before(async () => {
      await db.pool.query("ANALYZE webhook_deliveries");
    });

    for (const generic of [false, true]) {
      it(`reads webhook_endpoints by primary key only (${generic ? "generic" : "custom"} plan)`, async () => {
        const plan = await planOf(db.pool, CLAIM_SQL, claimValues(new Date()), {
          ...(generic ? { generic: { types: CLAIM_TYPES } } : {}),
        });
        const scans = scansOf(plan, "webhook_endpoints");
        expect(scans).to.have.length.greaterThan(0);
        expect(scans).to.not.include("Seq Scan");
      });
    }

    it("claims the due deliveries of the one endpoint with work", async () => {
      const claimed = await claimDueDeliveries(db.pool, new Date(), {
        holder: "worker_idle_endpoints",
        limit: 64,
        perEndpoint: 4,
        aheadPerEndpoint: 32,
        leaseMs: DELIVERY_LEASE_MS,
        held: [],
      });
      expect(claimed).to.have.length(20);
      expect(new Set(claimed.map((delivery) => delivery.url))).to.deep.equal(new Set([URL]));
    });
  });
});
