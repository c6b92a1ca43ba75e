import { expect } from "chai";
import { createApiKey, revokeApiKey } from "../../../services/partners/apiKeyStore";
import { authenticateApiKeys } from "../../../services/partners/keyAuthentication";
import { startChildApi } from "../support/childApi";
import { ExecutionCounter, FIXTURE_PATHS, fixtureRoutes } from "../support/fixtureRoutes";
import { bearer, expectEnvelope, issueKey, startTestApi, type TestApi } from "../support/harness";
import { send } from "../support/http";

const WHOAMI = `/api${FIXTURE_PATHS.whoami}`;
/** A clock minute well away from the test's real time: 2030-01-01T00:00:00Z. */
const MINUTE = Date.UTC(2030, 0, 1, 0, 0, 0);

describe("api: rate limits (fixed clock-minute window, per key, on Postgres)", () => {
  let api: TestApi;
  before(async () => {
    api = await startTestApi({ extraRoutes: [fixtureRoutes(new ExecutionCounter())] });
  });
  after(async () => api.close());

  async function callTimes(secret: string, times: number): Promise<number[]> {
    const statuses: number[] = [];
    for (let index = 0; index < times; index += 1) {
      statuses.push((await api.call({ path: WHOAMI, headers: bearer(secret) })).status);
    }
    return statuses;
  }

  it("allows a sandbox key exactly 60 per minute, then 429 with Retry-After to the next minute", async () => {
    const key = await issueKey(api, "sandbox");
    api.clock.set(MINUTE + 10_000);
    const statuses = await callTimes(key.secret, 60);
    expect(statuses.every((status) => status === 200)).to.equal(true);
    api.clock.set(MINUTE + 30_200);
    const limited = await api.call({ path: WHOAMI, headers: bearer(key.secret) });
    expectEnvelope(limited, 429, "rate_limited");
    expect(limited.headers["retry-after"]).to.equal("30");
    expect(limited.headers["ratelimit-remaining"]).to.equal("0");
  });

  it("at the minute boundary: the last millisecond is still limited, the next minute starts fresh", async () => {
    const key = await issueKey(api, "sandbox");
    api.clock.set(MINUTE + 60_000 + 1_000);
    await callTimes(key.secret, 60);
    api.clock.set(MINUTE + 120_000 - 1);
    const last = await api.call({ path: WHOAMI, headers: bearer(key.secret) });
    expectEnvelope(last, 429, "rate_limited");
    expect(last.headers["retry-after"]).to.equal("1");
    api.clock.set(MINUTE + 120_000);
    const fresh = await api.call({ path: WHOAMI, headers: bearer(key.secret) });
    expect(fresh.status).to.equal(200);
    expect(fresh.headers["ratelimit-remaining"]).to.equal("59");
    expect(fresh.headers["ratelimit-policy"]).to.equal('"per-minute";q=60;w=60');
    expect(fresh.headers.ratelimit).to.equal('"per-minute";r=59;t=60');
  });

  it("counts per key: exhausting one key leaves another key of the same partner untouched", async () => {
    const first = await issueKey(api, "production", { rateLimitPerMinute: 2, partnerId: "ptn_shared" });
    const second = await issueKey(api, "production", { rateLimitPerMinute: 2, partnerId: "ptn_shared" });
    api.clock.set(MINUTE + 180_000);
    expect(await callTimes(first.secret, 3)).to.deep.equal([200, 200, 429]);
    expect(await callTimes(second.secret, 2)).to.deep.equal([200, 200]);
  });

  it("production keys go up to 2000 per minute (the database refuses more) and sandbox keys stay at 60", async () => {
    const production = await createApiKey(api.db.pool, {
      environment: "production",
      scopes: ["launch:validate"],
      rateLimitPerMinute: 2000,
      label: "max",
      createdBy: "test",
    });
    expect(production.record.rateLimitPerMinute).to.equal(2000);
    const sandbox = await createApiKey(api.db.pool, {
      environment: "sandbox",
      scopes: ["launch:validate"],
      rateLimitPerMinute: 2000,
      label: "sbx",
      createdBy: "test",
    });
    expect(sandbox.record.rateLimitPerMinute).to.equal(60);
    let refused: unknown;
    try {
      await createApiKey(api.db.pool, {
        environment: "production",
        scopes: ["launch:validate"],
        rateLimitPerMinute: 2001,
        label: "over",
        createdBy: "test",
      });
    } catch (error) {
      refused = error;
    }
    expect(String(refused)).to.contain("rate_limit_per_minute");
    api.clock.set(MINUTE + 240_000);
    const response = await api.call({ path: WHOAMI, headers: bearer(production.issued.secret) });
    expect(response.headers["ratelimit-policy"]).to.equal('"per-minute";q=2000;w=60');
  });

  it("drops finished windows once a minute, keeping the current one", async () => {
    const key = await issueKey(api, "production");
    api.clock.set(MINUTE + 600_000);
    await callTimes(key.secret, 1);
    api.clock.set(MINUTE + 720_000);
    await callTimes(key.secret, 1);
    const windows = async () =>
      (
        await api.db.pool.query<{ window_start: Date }>(
          "SELECT window_start FROM rate_limit_windows WHERE subject = $1 ORDER BY window_start",
          [key.keyId],
        )
      ).rows.map((row) => row.window_start.getTime());
    for (let attempt = 0; attempt < 50 && (await windows()).length > 1; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(await windows()).to.deep.equal([MINUTE + 720_000]);
  });

  it("one authentication batch gives each attempt of a key its own count; unknown and revoked keys are not counted", async () => {
    const busy = await issueKey(api, "production", { rateLimitPerMinute: 100 });
    const other = await issueKey(api, "production", { rateLimitPerMinute: 100 });
    const revoked = await issueKey(api, "production");
    await revokeApiKey(api.db.pool, revoked.keyId, { actor: "test", reason: "test" });
    const unknown = `svc_live_${"A".repeat(43)}`;
    const at = MINUTE + 900_000 + 59_000;
    const results = await authenticateApiKeys(api.db.pool, [
      { raw: busy.secret, nowMs: at },
      { raw: other.secret, nowMs: at },
      { raw: unknown, nowMs: at },
      { raw: busy.secret, nowMs: at + 500 },
      { raw: revoked.secret, nowMs: at },
      { raw: busy.secret, nowMs: at + 1_000 }, // the next clock minute: a window of its own
      { raw: busy.secret, nowMs: at + 900 },
    ]);
    expect(
      results.map((result) =>
        result === undefined
          ? "unknown"
          : result.rate === undefined
            ? `${result.key.keyId} revoked`
            : [result.key.keyId, result.rate.count, result.rate.window.resetSeconds],
      ),
    ).to.deep.equal([
      [busy.keyId, 1, 1],
      [other.keyId, 1, 1],
      "unknown",
      [busy.keyId, 2, 1],
      `${revoked.keyId} revoked`,
      [busy.keyId, 1, 60],
      [busy.keyId, 3, 1],
    ]);
    const again = await authenticateApiKeys(api.db.pool, [{ raw: busy.secret, nowMs: at }]);
    expect(again[0]?.rate?.count).to.equal(4);
    const { rows } = await api.db.pool.query(
      "SELECT count(*)::int AS n FROM rate_limit_windows WHERE subject = $1",
      [revoked.keyId],
    );
    expect(rows[0].n).to.equal(0);
  });

  it("a concurrent burst on one key gets every RateLimit-Remaining value exactly once, then 429s", async () => {
    api.clock.set(MINUTE + 960_000);
    const key = await issueKey(api, "production", { rateLimitPerMinute: 40 });
    const responses = await Promise.all(
      Array.from({ length: 60 }, () => api.call({ path: WHOAMI, headers: bearer(key.secret) })),
    );
    const allowed = responses.filter((response) => response.status === 200);
    const remaining = allowed.map((response) => Number(response.headers["ratelimit-remaining"]));
    expect(remaining.sort((left, right) => left - right)).to.deep.equal(
      Array.from({ length: 40 }, (_, n) => n),
    );
    expect(responses.filter((response) => response.status === 429)).to.have.length(20);
  });

  it("holds exactly across two API processes sharing the database", async () => {
    const now = MINUTE + 300_000 + 5_000;
    api.clock.set(now);
    const child = await startChildApi({
      DB_URL: api.db.url,
      DB_SCHEMA: api.db.schema,
      FIXED_NOW_MS: String(now),
    });
    try {
      const key = await issueKey(api, "production", { rateLimitPerMinute: 50 });
      const requests = Array.from({ length: 80 }, (_, index) =>
        send(index % 2 === 0 ? api.url : child.url, { path: WHOAMI, headers: bearer(key.secret) }),
      );
      const statuses = (await Promise.all(requests)).map((response) => response.status);
      expect(statuses.filter((status) => status === 200)).to.have.length(50);
      expect(statuses.filter((status) => status === 429)).to.have.length(30);
    } finally {
      await child.stop();
    }
  });
});
