// Liveness and readiness on each role's internal probe server: live as soon as the process answers; ready only
// once its start-up steps are done and its live checks pass (a hanging check fails within the probe bound).
// Then the roles themselves: a worker whose database is unreachable is live and unready (still before its
// migrations); the API role on a real database is ready, with migrations, signer and database ok.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "chai";
import { generateMasterKey } from "../../core/secrets/secretBox";
import { silentLogger } from "../../telemetry/log";
import { PROBE_TIMEOUT_MS, Readiness, startProbeServer } from "../../telemetry/probes";
import { send } from "../api/support/http";
import { roleDatabaseUrl, startRoleProcess } from "../support/roleProcess";
import { createTestDatabase, freePort, type TestDatabase } from "../support/testDatabase";
import { get } from "./support";

async function until(check: () => Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("telemetry: liveness and readiness", function () {
  this.timeout(120_000);

  it("is unready while a start-up step is pending or a check fails, ready once all are done", async () => {
    const readiness = new Readiness();
    const server = await startProbeServer({ host: "127.0.0.1", port: 0, readiness, log: silentLogger() });
    try {
      const migrations = readiness.step("migrations", "migrating the database");
      let databaseUp = false;
      readiness.check("database", async () => {
        if (!databaseUp) throw new Error("connection refused");
      });
      expect((await get(`${server.url}/livez`)).status).to.equal(200);
      const pending = await get(`${server.url}/readyz`);
      expect(pending.status).to.equal(503);
      expect(JSON.parse(pending.text)).to.deep.equal({
        ready: false,
        checks: { migrations: "migrating the database", database: "connection refused" },
      });
      migrations.done();
      expect((await get(`${server.url}/readyz`)).status).to.equal(503);
      databaseUp = true;
      const ready = await get(`${server.url}/readyz`);
      expect(ready.status).to.equal(200);
      expect(JSON.parse(ready.text)).to.deep.equal({
        ready: true,
        checks: { migrations: "ok", database: "ok" },
      });
      expect((await get(`${server.url}/nothing`)).status).to.equal(404);
    } finally {
      await server.close();
    }
  });

  it("answers unready within the probe bound when a check hangs", async () => {
    const readiness = new Readiness();
    readiness.check("database", () => new Promise(() => undefined));
    const server = await startProbeServer({ host: "127.0.0.1", port: 0, readiness, log: silentLogger() });
    try {
      const started = Date.now();
      const response = await get(`${server.url}/readyz`);
      expect(response.status).to.equal(503);
      expect(response.text).to.contain("did not answer");
      expect(Date.now() - started).to.be.below(PROBE_TIMEOUT_MS + 1_500);
    } finally {
      await server.close();
    }
  });

  describe("the roles", () => {
    let database: TestDatabase;
    let env: Record<string, string>;

    before(async () => {
      database = await createTestDatabase();
      const dir = mkdtempSync(join(tmpdir(), "svc-probes-"));
      const manifestPath = join(dir, "manifest.json");
      writeFileSync(manifestPath, JSON.stringify({ evm: [], solana: [] }));
      env = {
        DEPLOYMENT_MANIFEST: manifestPath,
        MASTER_KEY: generateMasterKey(),
        DATA_DIR: dir,
        BASE_HOSTS: "127.0.0.1",
        METRICS_HOST: "127.0.0.1",
      };
    });
    after(async () => database?.close());

    it("a worker whose database is unreachable is live and not ready", async () => {
      const metricsPort = await freePort();
      const worker = startRoleProcess("worker/main.ts", {
        ...env,
        DATABASE_URL: `postgres://postgres@127.0.0.1:${await freePort()}/none`,
        METRICS_PORT: String(metricsPort),
      });
      try {
        await worker.printed("metrics and probes on");
        const probes = `http://127.0.0.1:${metricsPort}`;
        await until(async () => (await get(`${probes}/livez`)).status === 200, "liveness");
        const ready = await get(`${probes}/readyz`);
        expect(ready.status).to.equal(503);
        expect(JSON.parse(ready.text)).to.have.nested.property("checks.migrations", "migrating the database");
      } finally {
        await worker.stop();
      }
    });

    it("the API role is ready once migrated, its signer loaded and its database answering; metrics on the internal port only", async () => {
      const [apiPort, metricsPort] = [await freePort(), await freePort()];
      const api = startRoleProcess("api/main.ts", {
        ...env,
        DATABASE_URL: roleDatabaseUrl(database),
        HOST: "127.0.0.1",
        PORT: String(apiPort),
        METRICS_PORT: String(metricsPort),
      });
      try {
        await api.printed("listening on");
        const probes = `http://127.0.0.1:${metricsPort}`;
        const ready = await get(`${probes}/readyz`);
        expect(ready.status, ready.text).to.equal(200);
        expect(JSON.parse(ready.text)).to.deep.equal({
          ready: true,
          checks: { migrations: "ok", signer: "ok", database: "ok" },
        });
        const health = await send(`http://127.0.0.1:${apiPort}`, { path: "/api/v1/health" });
        expect(health.status).to.equal(200);
        expect(health.headers["request-id"]).to.match(/^req_/);
        const metrics = await get(`${probes}/metrics`);
        expect(metrics.text).to.contain(
          'http_request_duration_seconds_count{route="GET /api/v1/health",status="200"} 1',
        );
        expect((await send(`http://127.0.0.1:${apiPort}`, { path: "/readyz" })).status).to.equal(404);
        // Its log lines are JSON objects naming the role.
        const line = api
          .output()
          .split("\n")
          .find((text) => text.includes("listening on"));
        expect(JSON.parse(line ?? "{}")).to.include({ role: "api", level: "info" });
      } finally {
        await api.stop();
      }
    });
  });
});
