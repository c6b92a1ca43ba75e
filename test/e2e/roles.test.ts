// The production roles as separate processes against one Postgres, as a deployment runs them: two API
// replicas (`npm run api`), one worker, and both indexers, on the local chains. A reservation prepared on one
// replica and signed by a real wallet is confirmed by the worker from what the indexers mirrored (no hash is
// submitted), and the other replica's signed decision allows its launcher and blocks another wallet.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "chai";
import { registryCatalogue } from "../../chains/catalogue";
import type { RegistryClient } from "../../chains/registryClient";
import { generateMasterKey } from "../../core/secrets/secretBox";
import { freshnessOf } from "../../core/status";
import { type Localnet, startLocalnet } from "../../scripts/localnet";
import { readCheckpoints } from "../../services/mirror/chainCatalogue";
import { createApiKey } from "../../services/partners/apiKeyStore";
import { PARTNER_SCOPES } from "../../services/partners/scopes";
import { send } from "../api/support/http";
import { type RoleProcess, roleDatabaseUrl, startRoleProcess } from "../support/roleProcess";
import { createTestDatabase, freePort, type TestDatabase } from "../support/testDatabase";
import { get } from "../telemetry/support";
import {
  type ChainDriver,
  DAY,
  evmDriver,
  type PaidSteps,
  solanaDriver,
  uniquePair,
  waitUntil,
} from "./support";

interface Role extends RoleProcess {
  name: string;
}

const startRole = (name: string, entry: string, env: Record<string, string>): Role => ({
  name,
  ...startRoleProcess(entry, env),
});

describe("e2e: the production roles as separate processes on one Postgres", function () {
  this.timeout(240_000);
  let database: TestDatabase;
  let localnet: Localnet;
  let folder: string;
  let roles: Role[] = [];
  let replicas: string[] = [];
  let secret: string;
  let drivers: ChainDriver[];

  before(async () => {
    database = await createTestDatabase();
    folder = mkdtempSync(join(tmpdir(), "svc-roles-"));
    const manifestPath = join(folder, "deployment.json");
    localnet = await startLocalnet({ evmPort: 0, solanaPort: 0, slotMs: 100, manifestPath });
    const registries = registryCatalogue(localnet.manifest);
    drivers = [
      evmDriver(localnet, registries.production.get("hardhat") as RegistryClient),
      solanaDriver(localnet, registries.production.get("solana") as RegistryClient),
    ];
    const env = {
      DATABASE_URL: roleDatabaseUrl(database),
      DEPLOYMENT_MANIFEST: manifestPath,
      MASTER_KEY: generateMasterKey(),
      DATA_DIR: folder,
      BASE_HOSTS: "127.0.0.1",
      HOST: "127.0.0.1",
      SERVICE_SCHEMA: database.schema,
      EVM_VIEWS_SCHEMA: `${database.schema}_views`,
      EVM_POLLING_INTERVAL_MS: "100",
      SOLANA_POLL_INTERVAL_MS: "100",
      WORKER_INTERVAL_MS: "200",
    };
    const ports = [await freePort(), await freePort()];
    replicas = ports.map((port) => `http://127.0.0.1:${port}`);
    roles = [
      ...ports.map((port, index) =>
        startRole(`api ${index + 1}`, "api/main.ts", { ...env, PORT: String(port) }),
      ),
      startRole("worker", "worker/main.ts", env),
      startRole("indexer:evm", "indexer/evm/main.ts", { ...env, PONDER_PORT: String(await freePort()) }),
      startRole("indexer:solana", "indexer/solana/main.ts", env),
    ];
    for (const replica of replicas) {
      await waitUntil(
        () => send(replica, { path: "/api/v1/health" }).catch(() => undefined),
        (health) => health?.status === 200,
        `${replica} answering`,
        60_000,
      );
    }
    await waitUntil(
      () => readCheckpoints(database.pool),
      (chains) =>
        chains.length === 2 &&
        chains.every(({ checkpoint }) => freshnessOf(checkpoint, new Date()).state === "fresh"),
      "both chains indexed by their roles",
      120_000,
    );
    const { issued } = await createApiKey(database.pool, {
      environment: "production",
      scopes: PARTNER_SCOPES,
      rateLimitPerMinute: 2_000,
      label: "roles",
      createdBy: "test",
    });
    secret = issued.secret;
  });

  after(async () => {
    await Promise.all(roles.map((role) => role.stop()));
    const deployment = /Ponder deployment schema (\S+)/.exec(
      roles.find((role) => role.name === "indexer:evm")?.output() ?? "",
    )?.[1];
    for (const schema of [deployment, `${database?.schema}_views`]) {
      if (schema) await database?.pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    }
    await localnet?.stop();
    await database?.close();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  const call = (replica: string, method: string, path: string, body?: unknown) =>
    send(replica, { method, path: `/api/v1${path}`, headers: { authorization: `Bearer ${secret}` }, body });

  it("each indexer role is ready once its indexing runs (Ponder answering, the Solana loop past a pass)", async () => {
    for (const [name, check] of [
      ["indexer:evm", "indexing"],
      ["indexer:solana", "indexing solana"],
    ] as const) {
      const output = roles.find((role) => role.name === name)?.output() ?? "";
      const probes = /metrics and probes on (http:\/\/[^ ]+) \(/.exec(output)?.[1];
      expect(probes, output).to.be.a("string");
      const ready = await waitUntil(
        () => get(`${probes}/readyz`),
        (answer) => answer.status === 200,
        `${name} ready`,
        60_000,
      );
      expect(JSON.parse(ready.text)).to.deep.equal({
        ready: true,
        checks: { migrations: "ok", database: "ok", [check]: "ok" },
      });
    }
  });

  for (const family of ["evm", "solana"] as const) {
    it(`${family}: prepared on one replica, confirmed by the worker, decided on the other`, async () => {
      const driver = drivers.find((candidate) => candidate.family === family) as ChainDriver;
      const [first, second] = replicas as [string, string];
      const wallet = await driver.newWallet();
      const { name, ticker } = uniquePair(`Roles${family}`);
      const prepare = await call(first, "POST", "/reservations/prepare", {
        chain: driver.chain,
        name,
        ticker,
        launcher: wallet.address,
        durationSeconds: DAY,
      });
      expect(prepare.status, prepare.text).to.equal(201);
      const { reservationId, ...steps } = prepare.body as { reservationId: string } & PaidSteps;
      await wallet.pay(steps);

      // Read from the table, not through GET status (which reconciles on read): the worker alone confirms it.
      await waitUntil(
        async () =>
          (
            await database.pool.query<{ status: string }>(
              "SELECT status FROM reservations WHERE reservation_id = $1",
              [reservationId],
            )
          ).rows[0]?.status,
        (status) => status === "confirmed",
        `the worker confirms ${reservationId}`,
        60_000,
      );
      const status = await call(second, "GET", `/reservations/status?reservationId=${reservationId}`);
      expect(status.body).to.have.property("status", "confirmed");
      const launcher = await call(second, "POST", "/launches/validate", {
        chain: driver.chain,
        name,
        ticker,
        launcher: wallet.address,
      });
      expect(launcher.status, launcher.text).to.equal(200);
      expect(launcher.body).to.have.property("decision", "allow");
      const copycat = await call(first, "POST", "/launches/validate", {
        chain: driver.chain,
        name,
        ticker,
        launcher: (await driver.newWallet()).address,
      });
      expect(copycat.body).to.have.property("decision", "block");
    });
  }
});
