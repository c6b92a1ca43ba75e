// Graceful shutdown of the API role: SIGTERM in the middle of a burst of validate requests. Every request the
// process took in (its idempotency record completed) gets its answer and its line in the partner's request log
// (queued off the response path, written before the process exits); later ones find the port closed; exit 0.
import { mkdtempSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "chai";
import { generateMasterKey } from "../../../core/secrets/secretBox";
import { createApiKey } from "../../../services/partners/apiKeyStore";
import { roleDatabaseUrl, startRoleProcess } from "../../support/roleProcess";
import { createTestDatabase, freePort, type TestDatabase } from "../../support/testDatabase";
import { offlineManifest } from "../support/offlineManifest";

interface Outcome {
  key: string;
  status?: number;
  error?: string;
  /** When the answer (or the error) came, ms since epoch. */
  at: number;
}

/** One validate request on its own connection (no keep-alive: each request is accepted or refused whole). */
function validate(port: number, secret: string, key: string): Promise<Outcome> {
  const body = JSON.stringify({
    chain: "hardhat",
    name: `Drain ${key}`,
    ticker: "DRN",
    launcher: "0x5afef0c55afef0c55afef0c55afef0c55afef0c5",
  });
  return new Promise((resolve) => {
    const req = request(
      {
        host: "127.0.0.1",
        port,
        method: "POST",
        path: "/api/v1/launches/validate",
        agent: false,
        headers: {
          authorization: `Bearer ${secret}`,
          "idempotency-key": key,
          "content-type": "application/json",
          "content-length": String(Buffer.byteLength(body)),
        },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve({ key, status: res.statusCode, at: Date.now() }));
        res.on("error", (error) => resolve({ key, error: error.message, at: Date.now() }));
      },
    );
    req.on("error", (error: NodeJS.ErrnoException) =>
      resolve({ key, error: error.code ?? error.message, at: Date.now() }),
    );
    req.end(body);
  });
}

describe("api: graceful shutdown on SIGTERM", function () {
  this.timeout(120_000);
  let database: TestDatabase;

  before(async () => {
    database = await createTestDatabase();
  });
  after(async () => database?.close());

  it("answers every request it took in during a validate burst, refuses the rest, and exits 0", async () => {
    const dir = mkdtempSync(join(tmpdir(), "svc-shutdown-"));
    const manifestPath = join(dir, "manifest.json");
    writeFileSync(manifestPath, JSON.stringify(offlineManifest()));
    const port = await freePort();
    const role = startRoleProcess("api/main.ts", {
      DATABASE_URL: roleDatabaseUrl(database),
      DEPLOYMENT_MANIFEST: manifestPath,
      MASTER_KEY: generateMasterKey(),
      DATA_DIR: dir,
      BASE_HOSTS: "127.0.0.1",
      PORT: String(port),
      HOST: "127.0.0.1",
      SHUTDOWN_GRACE_MS: "15000",
    });
    await role.printed("listening on");
    const { issued, record } = await createApiKey(database.pool, {
      environment: "production",
      scopes: ["launch:validate"],
      rateLimitPerMinute: 2000,
      label: "shutdown",
      createdBy: "test",
    });
    const warm = await validate(port, issued.secret, "warm");
    expect(warm.status, warm.error).to.equal(200);

    // 8 clients, each sending its next request as soon as the previous one ends, for 400 requests.
    const outcomes: Outcome[] = [];
    let next = 0;
    let sentSignal = 0;
    let stopped: Promise<number | null> | undefined;
    const client = async () => {
      while (next < 400) {
        const outcome = await validate(port, issued.secret, `burst-${next++}`);
        outcomes.push(outcome);
        if (outcomes.length === 60 && stopped === undefined) {
          sentSignal = Date.now();
          stopped = role.stop();
        }
        if (outcome.error) return;
      }
    };
    await Promise.all(Array.from({ length: 8 }, client));
    expect(stopped, "the burst ended before SIGTERM").to.not.equal(undefined);
    expect(await stopped).to.equal(0);

    const { rows } = await database.pool.query<{ idempotency_key: string; response_status: number }>(
      "SELECT idempotency_key, response_status FROM idempotency_records WHERE state = 'completed' AND idempotency_key LIKE 'burst-%'",
    );
    const byKey = new Map(outcomes.map((outcome) => [outcome.key, outcome]));
    for (const row of rows) {
      const outcome = byKey.get(row.idempotency_key);
      expect(outcome, row.idempotency_key).to.not.equal(undefined);
      expect(outcome?.error, `${row.idempotency_key} was processed but its answer was lost`).to.equal(
        undefined,
      );
      expect(outcome?.status).to.equal(row.response_status);
    }
    // Each answered request's log line was written, the last ones' included (the log flushes every 200 ms).
    const answered = outcomes.filter((outcome) => outcome.status !== undefined).length + 1; // + warm
    const logged = await database.pool.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM api_request_log WHERE key_id = $1",
      [record.keyId],
    );
    expect(logged.rows[0]?.n, "request log lines of the answered requests").to.equal(answered);
    // The drain really overlapped the burst: answers came after the signal, and later requests were refused.
    expect(
      outcomes.filter((outcome) => outcome.status === 200 && outcome.at > sentSignal).length,
    ).to.be.greaterThan(0);
    // (A connection still in the kernel's backlog when the port closes is reset, not refused: it was never
    // taken in, and its request was never processed, which the records above check.)
    expect(outcomes.filter((outcome) => outcome.error).length).to.be.greaterThan(0);
    expect(role.output()).to.contain("SIGTERM: draining").and.contain("stopped");
  });
});
