// Group commit of attempt outcomes on a real Postgres: outcomes that arrive together (within the gathering
// pause, or while a statement is under way) are recorded in one statement, and each only under its own lease
// (a lost lease answers false and changes nothing).
import { randomBytes } from "node:crypto";
import { expect } from "chai";
import type { Pool } from "pg";
import { createSecretBox } from "../../../core/secrets/secretBox";
import { webhooksService } from "../../../services/webhooks";
import {
  claimDueDeliveries,
  DELIVERY_LEASE_MS,
  type RecordedAttempt,
} from "../../../services/webhooks/claims";
import { fanOutEvents } from "../../../services/webhooks/fanOut";
import { outcomeRecorder } from "../../../services/webhooks/outcomeRecorder";
import { appendDomainEvents } from "../../../storage/domainEvents";
import { withTransaction } from "../../../storage/transaction";
import { createTestDatabase, type TestDatabase } from "../../support/testDatabase";
import { tableLookup } from "./support";

describe("webhooks: outcome recorder", () => {
  let db: TestDatabase;
  before(async () => {
    db = await createTestDatabase();
  });
  after(async () => {
    await db?.close();
  });

  it("records outcomes that finish together in one statement, each only under its own lease", async () => {
    const owner = { partnerId: "partner_recorder", environment: "production" } as const;
    await webhooksService(db.pool, createSecretBox(randomBytes(32)), Date.now, {
      allowLocalReceivers: true,
      lookup: tableLookup({}),
    }).create(owner, { url: "http://127.0.0.1:9/recorder" });
    await withTransaction(db.pool, (client) =>
      appendDomainEvents(
        client,
        Array.from({ length: 4 }, (_, index) => ({
          type: "launch.reported" as const,
          environment: "production" as const,
          partnerId: owner.partnerId,
          payload: { index },
        })),
      ),
    );
    const at = new Date();
    await fanOutEvents(db.pool, at, 10);
    const claimed = await claimDueDeliveries(db.pool, at, {
      holder: "worker_recorder",
      limit: 4,
      perEndpoint: 4,
      aheadPerEndpoint: 4,
      leaseMs: DELIVERY_LEASE_MS,
      held: [],
    });
    expect(claimed).to.have.length(4);

    let statements = 0;
    const counting = {
      query: (...args: Parameters<Pool["query"]>) => {
        statements++;
        return (db.pool.query as (...a: unknown[]) => unknown)(...args);
      },
    } as unknown as Pool;
    const recorder = outcomeRecorder(counting);
    const succeeded: RecordedAttempt = {
      startedAt: at,
      durationMs: 3,
      responseCode: 200,
      error: null,
      failed: false,
      status: "succeeded",
      nextAttemptAt: null,
    };
    const [first, second, third, lost] = claimed as [
      (typeof claimed)[0],
      (typeof claimed)[0],
      (typeof claimed)[0],
      (typeof claimed)[0],
    ];
    // The first waits a moment for company (a batch this small is not full); the three that come meanwhile join it.
    const results = await Promise.all([
      recorder.record({ claimed: first, attempt: succeeded }),
      recorder.record({ claimed: second, attempt: succeeded }),
      recorder.record({ claimed: third, attempt: succeeded }),
      recorder.record({ claimed: { id: lost.id, leaseToken: "another_workers_lease" }, attempt: succeeded }),
    ]);
    expect(results).to.deep.equal([true, true, true, false]);
    expect(statements).to.equal(1);

    const { rows } = await db.pool.query<{ id: string; status: string; attempt_count: number }>(
      "SELECT id, status, attempt_count FROM webhook_deliveries ORDER BY seq",
    );
    const byId = new Map(rows.map((row) => [row.id, row]));
    for (const recorded of [first, second, third]) {
      expect(byId.get(recorded.id)).to.include({ status: "succeeded", attempt_count: 1 });
    }
    expect(byId.get(lost.id), "still held by its real lease").to.include({
      status: "pending",
      attempt_count: 0,
    });
    const attempts = await db.pool.query("SELECT 1 FROM webhook_attempts");
    expect(attempts.rowCount).to.equal(3);
  });
});
