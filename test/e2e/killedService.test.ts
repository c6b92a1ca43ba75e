// The embedded default keeps what it acknowledged when its process dies: `npm start` on a fresh DATA_DIR takes
// writes through the API on every kind of table a partner touches (sandbox key, webhook endpoint, launch
// report, dispute, reservation prepare), its whole process group is killed with SIGKILL right after the last
// 2xx, and the next `npm start` on the same folder opens and finds every one of them. Ten kills in a row.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "chai";
import pg from "pg";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { freePort } from "../../net/ports";
import { type HttpResponse, send } from "../api/support/http";
import { npmStart, type RunningStart, START_PATIENCE_MS, signalGroup } from "../support/npmStart";

const KILLS = 10;
const SANDBOX = "sandbox.localhost";

/** SIGKILL to every process of the group (npm, tsx, the service, the Hardhat node), resolved once npm is gone. */
const killGroup = (running: RunningStart) => signalGroup(running, "SIGKILL");

/** What one round wrote, each acknowledged with a 2xx. */
interface Written {
  apiKey: string;
  keyId: string;
  webhookId: string;
  launchId: string;
  disputeId: string;
  reservationId: string;
}

function expectStatus(response: HttpResponse, status: number, what: string): Record<string, unknown> {
  expect(response.status, `${what}: ${response.text}`).to.equal(status);
  return response.body as Record<string, unknown>;
}

async function writeEveryKind(apiUrl: string, round: number): Promise<Written> {
  const call = (method: string, path: string, body?: unknown, apiKey?: string) =>
    send(apiUrl, {
      method,
      path: `/api/v1${path}`,
      host: SANDBOX,
      headers: apiKey === undefined ? {} : { authorization: `Bearer ${apiKey}` },
      body,
    });
  const key = expectStatus(
    await call("POST", "/sandbox/keys", {
      organization: `Kill ${round} Ltd`,
      email: `kill${round}@example.com`,
    }),
    201,
    "sandbox key",
  );
  const apiKey = key.apiKey as string;
  const webhook = expectStatus(
    await call("POST", "/webhooks", { url: `http://127.0.0.1:9/hooks/${round}` }, apiKey),
    201,
    "webhook endpoint",
  );
  const creator = privateKeyToAccount(generatePrivateKey());
  const identity = { chain: "hardhat", name: `Durable ${round}`, ticker: `DUR${round}` };
  const launch = expectStatus(
    await call(
      "POST",
      "/launches/report",
      {
        ...identity,
        launchpad: `kill-pad-${round}`,
        launcher: creator.address,
        tokenOrMint: `0x${"ab".repeat(20)}`,
      },
      apiKey,
    ),
    200,
    "launch report",
  );
  const challenge = expectStatus(
    await call("POST", "/disputes/challenge", { chain: "hardhat", address: creator.address }),
    201,
    "dispute challenge",
  );
  const message = challenge.message as string;
  const dispute = expectStatus(
    await call("POST", "/disputes", {
      ...identity,
      reason: "other",
      statement: `round ${round}: this identity is mine`,
      proof: { message, signature: await creator.signMessage({ message }) },
    }),
    201,
    "dispute",
  );
  const prepared = expectStatus(
    await call(
      "POST",
      "/reservations/prepare",
      { ...identity, name: `Prepared ${round}`, launcher: creator.address, durationSeconds: 86_400 },
      apiKey,
    ),
    201,
    "reservation prepare",
  );
  return {
    apiKey,
    keyId: key.keyId as string,
    webhookId: webhook.id as string,
    launchId: launch.eventId as string,
    disputeId: (dispute.dispute as { disputeId: string }).disputeId,
    reservationId: prepared.reservationId as string,
  };
}

/** Every write of `written` read back through the API (and the launch report, which no route lists, from its table). */
async function expectKept(apiUrl: string, databaseUrl: string, written: Written[]): Promise<void> {
  const database = new pg.Client({ connectionString: databaseUrl });
  await database.connect();
  try {
    for (const [round, write] of written.entries()) {
      const call = (path: string) =>
        send(apiUrl, {
          path: `/api/v1${path}`,
          host: SANDBOX,
          headers: { authorization: `Bearer ${write.apiKey}` },
        });
      const what = (kind: string) => `round ${round}: ${kind}`;
      expect(expectStatus(await call("/sandbox/keys"), 200, what("sandbox key")).keyId).to.equal(write.keyId);
      const endpoints = expectStatus(await call("/webhooks"), 200, what("webhook endpoints")).endpoints as {
        id: string;
      }[];
      expect(
        endpoints.map((endpoint) => endpoint.id),
        what("webhook endpoint"),
      ).to.deep.equal([write.webhookId]);
      const launches = await database.query("SELECT 1 FROM identity_launches WHERE id = $1", [
        Number(write.launchId.replace("launch_", "")),
      ]);
      expect(launches.rowCount, what("launch report")).to.equal(1);
      expectStatus(await call(`/disputes/${write.disputeId}`), 200, what("dispute"));
      expectStatus(
        await call(`/reservations/status?reservationId=${write.reservationId}`),
        200,
        what("prepare"),
      );
    }
  } finally {
    await database.end();
  }
}

describe("e2e: the embedded default keeps every acknowledged write when its process group is killed", function () {
  this.timeout(KILLS * 3 * START_PATIENCE_MS);
  let dataDir: string;
  let running: RunningStart | undefined;

  before(function () {
    // The embedded default's own promise; the run of the suite on Postgres has no embedded database to test.
    if (process.env.DATABASE_URL) this.skip();
    dataDir = mkdtempSync(join(tmpdir(), "svc-killed-"));
  });
  after(async () => {
    if (running) await killGroup(running);
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it(`loses nothing across ${KILLS} SIGKILLs of npm start, each right after the last 2xx`, async () => {
    const databasePort = await freePort();
    const env = {
      DATA_DIR: dataDir,
      PORT: "0",
      METRICS_PORT: "0",
      EMBEDDED_DB_PORT: String(databasePort),
      LOCAL_EVM_PORT: "0",
      LOCAL_SOLANA_PORT: "0",
      PONDER_PORT: String(await freePort()),
      SANDBOX_HOSTS: SANDBOX,
      LOG_LEVEL: "warn",
    };
    const databaseUrl = `postgres://postgres@127.0.0.1:${databasePort}/postgres?sslmode=disable`;
    const written: Written[] = [];
    for (let kill = 1; kill <= KILLS; kill++) {
      running = await npmStart(env);
      await expectKept(running.apiUrl, databaseUrl, written);
      written.push(await writeEveryKind(running.apiUrl, kill));
      await killGroup(running);
      running = undefined;
    }
    running = await npmStart(env);
    await expectKept(running.apiUrl, databaseUrl, written);
  });
});
