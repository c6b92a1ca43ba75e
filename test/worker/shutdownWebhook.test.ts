// SIGTERM to `npm run worker` while a webhook attempt is in flight (its receiver holds the request open): within
// SHUTDOWN_GRACE_MS the worker waits for the attempt, records its outcome and exits 0; past the grace it exits 0
// leaving the attempt to its lease, and a worker started afterwards re-sends it once the lease runs out.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "chai";
import { createSecretBox, generateMasterKey, parseMasterKey } from "../../core/secrets/secretBox";
import { webhooksService } from "../../services/webhooks";
import { appendDomainEvents } from "../../storage/domainEvents";
import { withTransaction } from "../../storage/transaction";
import { waitFor } from "../indexer/support/readModel";
import { type RoleProcess, roleDatabaseUrl, startRoleProcess } from "../support/roleProcess";
import { createTestDatabase, type TestDatabase } from "../support/testDatabase";

interface Arrival {
  deliveryId: string;
  response: ServerResponse;
}

interface DeliveryRow {
  id: string;
  status: string;
  attempt_count: number;
  last_response_code: number | null;
  leased_until: Date | null;
}

describe("worker: SIGTERM with a webhook attempt in flight", function () {
  this.timeout(120_000);
  let db: TestDatabase;
  let folder: string;
  let server: Server;
  let env: Record<string, string>;
  const partnerId = "partner_stop_webhook";
  const arrivals: Arrival[] = [];
  /** While true the receiver holds every request open; otherwise it answers 200 at once. */
  let holding = true;
  const running: RoleProcess[] = [];

  before(async () => {
    db = await createTestDatabase();
    folder = mkdtempSync(join(tmpdir(), "svc-worker-stop-webhook-"));
    const manifestPath = join(folder, "manifest.json");
    writeFileSync(manifestPath, JSON.stringify({ evm: [], solana: [] }));
    const masterKey = generateMasterKey();
    server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        const envelope = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { id: string };
        arrivals.push({ deliveryId: envelope.id, response });
        if (!holding) response.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    const service = webhooksService(db.pool, createSecretBox(parseMasterKey(masterKey)), Date.now, {
      allowLocalReceivers: true,
    });
    await service.create({ partnerId, environment: "production" }, { url: `http://127.0.0.1:${port}/hook` });
    env = {
      DATABASE_URL: roleDatabaseUrl(db),
      DEPLOYMENT_MANIFEST: manifestPath,
      MASTER_KEY: masterKey,
      DATA_DIR: folder,
      WEBHOOK_ALLOW_LOCALHOST: "true",
      WEBHOOK_LEASE_MS: "3000",
    };
  });

  after(async () => {
    await Promise.all(running.map((worker) => worker.kill()));
    server?.closeAllConnections();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    if (folder) rmSync(folder, { recursive: true, force: true });
    await db?.close();
  });

  const startWorker = async (graceMs: number) => {
    const worker = startRoleProcess("worker/main.ts", { ...env, SHUTDOWN_GRACE_MS: String(graceMs) });
    running.push(worker);
    await worker.printed("delivering webhooks");
    return worker;
  };
  /** Appends one event for the partner; resolves with its delivery's id once its attempt reached the receiver. */
  const eventInFlight = async (seq: number) => {
    const before = arrivals.length;
    await withTransaction(db.pool, (client) =>
      appendDomainEvents(client, [
        { type: "launch.reported", environment: "production", partnerId, payload: { seq } },
      ]),
    );
    await waitFor(
      async () => arrivals.length,
      (count) => count > before,
    );
    return (arrivals[before] as Arrival).deliveryId;
  };
  const delivery = async (id: string) => {
    const { rows } = await db.pool.query<DeliveryRow>(
      "SELECT id, status, attempt_count, last_response_code, leased_until FROM webhook_deliveries WHERE id = $1",
      [id],
    );
    return rows[0] as DeliveryRow;
  };

  it("within the grace: waits for the attempt, records its outcome, exits 0", async () => {
    holding = true;
    const worker = await startWorker(20_000);
    const id = await eventInFlight(1);
    const exited = worker.stop();
    await worker.printed("SIGTERM: draining (at most 20000 ms)");
    // The attempt is still open after the signal; the receiver answers it now.
    expect(worker.output()).not.to.contain("stopped");
    arrivals
      .find((arrival) => arrival.deliveryId === id)
      ?.response.writeHead(200)
      .end();
    expect(await exited, worker.output()).to.equal(0);
    expect(worker.output()).to.contain("stopped").and.not.contain("left to its lease");
    expect(await delivery(id)).to.include({ status: "succeeded", attempt_count: 1, last_response_code: 200 });
  });

  it("past the grace: exits 0 leaving the attempt to its lease; a worker re-sends it once the lease runs out", async () => {
    holding = true;
    const worker = await startWorker(1000);
    const id = await eventInFlight(2);
    expect(await worker.stop(), worker.output()).to.equal(0);
    expect(worker.output()).to.contain(
      "1 webhook attempt still under way after 1000 ms left to its lease: a worker re-sends it once the lease runs out",
    );
    // Nothing was recorded: the delivery is pending under the stopped worker's lease.
    const left = await delivery(id);
    expect(left).to.include({ status: "pending", attempt_count: 0 });
    expect(left.leased_until).to.not.equal(null);

    holding = false;
    await startWorker(1000);
    const done = await waitFor(
      () => delivery(id),
      (row) => row.status === "succeeded",
      30_000,
    );
    expect(done).to.include({ attempt_count: 1, last_response_code: 200 });
    expect(arrivals.filter((arrival) => arrival.deliveryId === id)).to.have.length(2);
  });
});
