// The claim's cost follows the endpoints that have work (issue 45: "the claim no slower with 5,000 enabled
// endpoints than with 5"). Its plan, as Postgres makes it beside thousands of idle endpoints, reads
// webhook_endpoints by primary key only: a sequential scan of it is a claim that visits every endpoint. Both
// plans are checked: the custom one (an unnamed statement) and the generic one a named statement settles on.
import { randomBytes } from "node:crypto";
import { expect } from "chai";
import type { PoolClient } from "pg";
import { createSecretBox } from "../../../core/secrets/secretBox";
import { webhooksService } from "../../../services/webhooks";
import { CLAIM_SQL, claimDueDeliveries, DELIVERY_LEASE_MS } from "../../../services/webhooks/claims";
import { fanOutEvents } from "../../../services/webhooks/fanOut";
import { appendDomainEvents } from "../../../storage/domainEvents";
import { withTransaction } from "../../../storage/transaction";
import { createTestDatabase, type TestDatabase } from "../../support/testDatabase";
import { tableLookup } from "./support";

const IDLE_ENDPOINTS = 3000;
const OWNER = { partnerId: "partner_claim_plan", environment: "production" } as const;

interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  Plans?: PlanNode[];
}

/** Every node of a plan, depth first. */
function nodesOf(node: PlanNode): PlanNode[] {
  return [node, ...(node.Plans ?? []).flatMap(nodesOf)];
}

/** How the plan reads webhook_endpoints: the node types that name it. */
function endpointReads(plan: PlanNode): string[] {
  return nodesOf(plan)
    .filter((node) => node["Relation Name"] === "webhook_endpoints")
    .map((node) => node["Node Type"]);
}

function claimValues(at: Date): unknown[] {
  return [at, "token", new Date(at.getTime() + DELIVERY_LEASE_MS), 4, 64, [], "holder", 32];
}

describe("webhooks: the claim beside thousands of idle endpoints", () => {
  let db: TestDatabase;
  before(async () => {
    db = await createTestDatabase();
    await webhooksService(db.pool, createSecretBox(randomBytes(32)), Date.now, {
      allowLocalReceivers: true,
      lookup: tableLookup({}),
    }).create(OWNER, { url: "http://127.0.0.1:9/claim-plan" });
    await withTransaction(db.pool, (client) =>
      appendDomainEvents(
        client,
        Array.from({ length: 6 }, (_, index) => ({
          type: "launch.reported" as const,
          environment: "production" as const,
          partnerId: OWNER.partnerId,
          payload: { index },
        })),
      ),
    );
    await fanOutEvents(db.pool, new Date(), 10);
    await db.pool.query(
      `INSERT INTO webhook_endpoints (id, partner_id, environment, url, enabled, secret_sealed, created_at, updated_at)
       SELECT 'whe_idle_' || n, 'partner_idle_' || n, 'production', 'https://idle.example/' || n, true, 'unused',
         now(), now()
       FROM generate_series(1, $1::int) AS n`,
      [IDLE_ENDPOINTS],
    );
    await db.pool.query("ANALYZE webhook_endpoints");
    await db.pool.query("ANALYZE webhook_deliveries");
  });
  after(async () => {
    await db?.close();
  });

  async function inTransaction<T>(run: (client: PoolClient) => Promise<T>): Promise<T> {
    const client = await db.pool.connect();
    try {
      await client.query("BEGIN");
      return await run(client);
    } finally {
      await client.query("ROLLBACK");
      client.release();
    }
  }

  it("reads webhook_endpoints by primary key only, in the custom plan", async () => {
    const reads = await inTransaction(async (client) => {
      const { rows } = await client.query<{ "QUERY PLAN": [{ Plan: PlanNode }] }>(
        `EXPLAIN (FORMAT JSON) ${CLAIM_SQL}`,
        claimValues(new Date()),
      );
      return endpointReads((rows[0] as { "QUERY PLAN": [{ Plan: PlanNode }] })["QUERY PLAN"][0].Plan);
    });
    expect(reads).to.have.length.greaterThan(0);
    expect(reads).to.not.include("Seq Scan");
  });

  it("reads webhook_endpoints by primary key only, in the generic plan", async () => {
    const reads = await inTransaction(async (client) => {
      await client.query("SET LOCAL plan_cache_mode = force_generic_plan");
      await client.query(
        `PREPARE claim_plan (timestamptz, text, timestamptz, int, int, text[], text, int) AS ${CLAIM_SQL}`,
      );
      try {
        const { rows } = await client.query<{ "QUERY PLAN": [{ Plan: PlanNode }] }>(
          "EXPLAIN (FORMAT JSON) EXECUTE claim_plan(now(), 'token', now() + interval '1 minute', 4, 64, '{}', 'holder', 32)",
        );
        return endpointReads((rows[0] as { "QUERY PLAN": [{ Plan: PlanNode }] })["QUERY PLAN"][0].Plan);
      } finally {
        await client.query("DEALLOCATE claim_plan");
      }
    });
    expect(reads).to.have.length.greaterThan(0);
    expect(reads).to.not.include("Seq Scan");
  });

  it("still claims the due deliveries of the one endpoint with work", async () => {
    const claimed = await claimDueDeliveries(db.pool, new Date(), {
      holder: "worker_claim_plan",
      limit: 64,
      perEndpoint: 4,
      aheadPerEndpoint: 32,
      leaseMs: DELIVERY_LEASE_MS,
      held: [],
    });
    expect(claimed).to.have.length(6);
    expect(new Set(claimed.map((delivery) => delivery.url))).to.deep.equal(
      new Set(["http://127.0.0.1:9/claim-plan"]),
    );
  });
});
