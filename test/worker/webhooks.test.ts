// The worker's webhook job on the real clock: an outbox event reaches a local receiver without any test
// driving the passes, and stop() returns once the job is idle.
import { randomBytes } from "node:crypto";
import { expect } from "chai";
import { createSecretBox } from "../../core/secrets/secretBox";
import { webhooksService } from "../../services/webhooks";
import { appendDomainEvents } from "../../storage/domainEvents";
import { withTransaction } from "../../storage/transaction";
import { startWebhookJob } from "../../worker/webhooks";
import { Receiver, tableLookup } from "../services/webhooks/support";
import { createTestDatabase, type TestDatabase } from "../support/testDatabase";

describe("worker: webhook job", () => {
  let db: TestDatabase;
  const receiver = new Receiver();
  before(async () => {
    db = await createTestDatabase();
    await receiver.start();
  });
  after(async () => {
    await receiver.stop();
    await db?.close();
  });

  it("delivers outbox events on its own, then stops", async () => {
    const masterKey = randomBytes(32);
    const lookup = tableLookup({});
    const owner = { partnerId: "partner_job", environment: "production" } as const;
    await webhooksService(db.pool, createSecretBox(masterKey), Date.now, {
      allowLocalReceivers: true,
      lookup,
    }).create(owner, { url: receiver.url("/job") });
    const job = startWebhookJob({
      pool: db.pool,
      masterKey,
      allowLocalReceivers: true,
      lookup,
      log: () => undefined,
    });
    try {
      await withTransaction(db.pool, (client) =>
        appendDomainEvents(client, [
          {
            type: "revenue.accrued",
            environment: "production",
            partnerId: owner.partnerId,
            payload: { usd: 1 },
          },
        ]),
      );
      for (let waited = 0; receiver.at("/job").length === 0; waited++) {
        expect(waited, "delivered within 10 s").to.be.below(500);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    } finally {
      await job.stop();
    }
    expect(JSON.parse(receiver.at("/job")[0]?.rawBody ?? "{}")).to.nested.include({
      type: "revenue.accrued",
      "data.usd": 1,
    });
  });
});
