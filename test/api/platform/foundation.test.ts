import { expect } from "chai";
import type { Pool } from "pg";
import { BODY_LIMIT_BYTES, createApp } from "../../../api/app";
import { RESPONSE_VERSION } from "../../../api/platform/responseVersion";
import { listen, type RunningServer } from "../../../api/server";
import { createPool } from "../../../storage/pool";
import { silentLogger } from "../../../telemetry/log";
import { createTestDatabase, freePort, type TestDatabase } from "../../support/testDatabase";

async function startApi(pool: Pool): Promise<RunningServer> {
  return listen(
    createApp({ pool, startedAt: new Date(), log: silentLogger(), decisions: { chains: [] } }),
    "127.0.0.1",
    0,
  );
}

interface Body {
  status?: string;
  database?: { ok: boolean; latencyMs?: number };
  error?: { code: string; message: string; details: unknown };
  responseVersion?: string;
}

const readBody = async (response: Response): Promise<Body> => (await response.json()) as Body;

function expectEnvelope(body: unknown, code: string): void {
  expect(body).to.have.nested.property("error.code", code);
  expect(body).to.have.nested.property("error.message").that.is.a("string").and.not.empty;
  expect(body).to.have.nested.property("error.details");
  expect(body).to.have.property("responseVersion", RESPONSE_VERSION);
}

describe("api: foundation over HTTP", () => {
  let db: TestDatabase;
  let api: RunningServer;
  before(async () => {
    db = await createTestDatabase();
    api = await startApi(db.pool);
  });
  after(async () => {
    await api.close();
    await db.close();
  });

  it("GET /api/v1/health answers ok with the database latency and responseVersion", async () => {
    const response = await fetch(`${api.url}/api/v1/health`);
    expect(response.status).to.equal(200);
    const body = await readBody(response);
    expect(body).to.include({ status: "ok", responseVersion: RESPONSE_VERSION });
    expect(body.database?.ok).to.equal(true);
    expect(body.database?.latencyMs).to.be.a("number");
  });

  it("sends security headers and hides the framework", async () => {
    const response = await fetch(`${api.url}/api/v1/health`);
    expect(response.headers.get("x-content-type-options")).to.equal("nosniff");
    expect(response.headers.get("x-powered-by")).to.equal(null);
  });

  it("answers an unknown route with a 404 envelope that points at the API root", async () => {
    const response = await fetch(`${api.url}/api/v1/nothing-here`);
    expect(response.status).to.equal(404);
    const body = await readBody(response);
    expectEnvelope(body, "not_found");
    expect(body.error?.message).to.contain("/api/v1");
  });

  it("answers invalid JSON with a 400 envelope, not a 500", async () => {
    const response = await fetch(`${api.url}/api/v1/health`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"name": ',
    });
    expect(response.status).to.equal(400);
    expectEnvelope(await response.json(), "invalid_request");
  });

  it("refuses a body over the size limit with a 413 envelope", async () => {
    const response = await fetch(`${api.url}/api/v1/health`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ padding: "x".repeat(BODY_LIMIT_BYTES) }),
    });
    expect(response.status).to.equal(413);
    expectEnvelope(await response.json(), "payload_too_large");
  });
});

describe("api: health when the database is down", () => {
  it("answers 503 service_unavailable, never ok", async () => {
    const deadPool = createPool({
      connectionString: `postgres://postgres@127.0.0.1:${await freePort()}/none`,
      max: 1,
    });
    const api = await startApi(deadPool);
    try {
      const response = await fetch(`${api.url}/api/v1/health`);
      expect(response.status).to.equal(503);
      const body = await readBody(response);
      expectEnvelope(body, "service_unavailable");
      expect(body.error?.details).to.deep.equal({
        database: { ok: false, reason: "unreachable" },
        chains: "unavailable",
        requestId: response.headers.get("request-id"),
      });
    } finally {
      await api.close();
      await deadPool.end();
    }
  });
});
