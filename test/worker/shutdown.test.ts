// Graceful shutdown of the worker role: SIGTERM lets the passes under way finish, then it exits 0 within
// SHUTDOWN_GRACE_MS; a stop that cannot finish in time exits 1 instead of hanging.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "chai";
import { generateMasterKey } from "../../core/secrets/secretBox";
import { roleDatabaseUrl, startRoleProcess } from "../support/roleProcess";
import { createTestDatabase, type TestDatabase } from "../support/testDatabase";

describe("worker: graceful shutdown on SIGTERM", function () {
  this.timeout(120_000);
  let db: TestDatabase;
  let env: Record<string, string>;

  before(async () => {
    db = await createTestDatabase();
    const folder = mkdtempSync(join(tmpdir(), "svc-worker-stop-"));
    const manifestPath = join(folder, "manifest.json");
    writeFileSync(manifestPath, JSON.stringify({ evm: [], solana: [] }));
    env = {
      DATABASE_URL: roleDatabaseUrl(db),
      DEPLOYMENT_MANIFEST: manifestPath,
      MASTER_KEY: generateMasterKey(),
      DATA_DIR: folder,
      WORKER_INTERVAL_MS: "50",
      SHUTDOWN_GRACE_MS: "5000",
    };
  });
  after(async () => db?.close());

  it("drains and exits 0 within the grace", async () => {
    const worker = startRoleProcess("worker/main.ts", env);
    await worker.printed("delivering webhooks");
    const signalled = Date.now();
    expect(await worker.stop(), worker.output()).to.equal(0);
    expect(Date.now() - signalled).to.be.below(5000);
    expect(worker.output()).to.contain("SIGTERM: draining (at most 5000 ms)").and.contain("stopped");
  });
});
