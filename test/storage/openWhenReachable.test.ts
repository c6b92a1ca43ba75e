// A role started while its database is unreachable waits for it instead of exiting. (That other errors end
// the start at once is retryUntilSuccess's isFatal, test/core/backoff.test.ts.)
import { expect } from "chai";
import { openDatabaseWhenReachable } from "../../storage/openWhenReachable";
import { startFaultProxy } from "../support/faultProxy";
import { createTestDatabase, type TestDatabase } from "../support/testDatabase";

describe("storage: opening the database when it becomes reachable", () => {
  let database: TestDatabase;

  before(async () => {
    database = await createTestDatabase();
  });
  after(async () => {
    await database?.close();
  });

  it("retries while the database is cut, logging each attempt, and opens it once it is back", async () => {
    const { hostname, port } = new URL(database.url);
    const proxy = await startFaultProxy({ host: hostname, port: Number(port) });
    const lines: string[] = [];
    try {
      proxy.cut();
      const opening = openDatabaseWhenReachable(
        { kind: "postgres", url: proxy.urlThrough(database.url), schema: database.schema },
        { log: (line) => lines.push(line), backoff: { initialDelayMs: 10, maxDelayMs: 50 } },
      );
      while (!lines.some((line) => line.includes("(attempt 3)"))) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      proxy.restore();
      const opened = await opening;
      try {
        const { rows } = await opened.pool.query("SELECT count(*)::int AS n FROM chain_checkpoints");
        expect(rows[0].n).to.be.a("number");
      } finally {
        await opened.close();
      }
      expect(lines[0]).to.match(/^Opening the database failed \(attempt 1\), retrying in \d+ ms: /);
      expect(lines.at(-1)).to.match(/^Opening the database resumed after \d+ failed attempts$/);
    } finally {
      await proxy.close();
    }
  });
});
