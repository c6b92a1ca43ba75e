// The API-only role (`npm run api`) run as two replicas against one Postgres: both serve, and a key's rate
// limit stays exact across them, because replicas share nothing but the database.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "chai";
import { generateMasterKey } from "../../../core/secrets/secretBox";
import { createApiKey } from "../../../services/partners/apiKeyStore";
import { roleDatabaseUrl, startRoleProcess } from "../../support/roleProcess";
import { createTestDatabase, freePort, type TestDatabase } from "../../support/testDatabase";
import { send } from "../support/http";

interface Replica {
  url: string;
  stop(): Promise<void>;
}

async function startReplica(env: Record<string, string>): Promise<Replica> {
  const port = await freePort();
  const role = startRoleProcess("api/main.ts", { ...env, PORT: String(port), HOST: "127.0.0.1" });
  await role.printed("listening on");
  return {
    url: `http://127.0.0.1:${port}`,
    stop: async () => {
      await role.stop();
    },
  };
}

/** Waits until at least `seconds` remain in the current clock minute, so a burst stays in one rate window. */
async function awayFromMinuteEnd(seconds: number): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < seconds * 1000) await new Promise((resolve) => setTimeout(resolve, left + 50));
}

describe("api: two replicas of the API-only role on one Postgres", function () {
  this.timeout(120_000);
  let database: TestDatabase;
  let replicas: Replica[] = [];

  before(async () => {
    database = await createTestDatabase();
    const dir = mkdtempSync(join(tmpdir(), "svc-replicas-"));
    const manifestPath = join(dir, "manifest.json");
    writeFileSync(manifestPath, JSON.stringify({ evm: [], solana: [] }));
    const env = {
      DATABASE_URL: roleDatabaseUrl(database),
      DEPLOYMENT_MANIFEST: manifestPath,
      MASTER_KEY: generateMasterKey(),
      DATA_DIR: dir,
      BASE_HOSTS: "127.0.0.1",
    };
    replicas = await Promise.all([startReplica(env), startReplica(env)]);
  });

  after(async () => {
    await Promise.all(replicas.map((replica) => replica.stop()));
    await database?.close();
  });

  it("both replicas answer health from the shared database", async () => {
    for (const replica of replicas) {
      const health = await send(replica.url, { path: "/api/v1/health" });
      expect(health.status, health.text).to.equal(200);
      expect(health.body).to.have.nested.property("database.ok", true);
    }
  });

  it("keeps a key's rate limit exact across both replicas", async () => {
    const { issued } = await createApiKey(database.pool, {
      environment: "production",
      scopes: ["launch:validate"],
      rateLimitPerMinute: 7,
      label: "replicas",
      createdBy: "test",
    });
    await awayFromMinuteEnd(15);
    const attempts = Array.from({ length: 12 }, (_, index) =>
      send((replicas[index % 2] as Replica).url, {
        path: "/api/v1/launches/validate",
        method: "POST",
        headers: { authorization: `Bearer ${issued.secret}` },
        body: { chain: "nochain", name: "Replica", ticker: "RPL", launcher: "x" },
      }),
    );
    const responses = await Promise.all(attempts);
    const statuses = responses.map((response) => response.status);
    // Seven admitted (answered past admission: no chain is configured here, so 503), five refused.
    expect(statuses.filter((status) => status === 429)).to.have.length(5);
    expect(statuses.filter((status) => status !== 429)).to.deep.equal(Array(7).fill(503));
    for (const response of responses) expect(response.body).to.have.nested.property("error.code");
  });
});
