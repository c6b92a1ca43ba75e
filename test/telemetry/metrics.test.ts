// The API's metrics, read from the probe server the way Prometheus scrapes it: latency by route (direct and
// Express routes), decisions by value and reason, 429s, idempotency replays and conflicts, the batched
// statements' sizes and times; the worker's database gauges (chain lag, seconds since indexed, outbox backlog
// and oldest age); none of it on the API.
import { expect } from "chai";
import { silentLogger } from "../../telemetry/log";
import { type ProbeServer, Readiness, startProbeServer } from "../../telemetry/probes";
import { databaseGauges } from "../../worker/databaseGauges";
import { CHAINS, EVM_OTHER, setCheckpoints } from "../api/routes/identity/support";
import { bearer, issueKey, startTestApi, type TestApi } from "../api/support/harness";
import { send } from "../api/support/http";
import { get, sampleValue } from "./support";

const VALIDATE = "POST /api/v1/launches/validate";

describe("telemetry: metrics", function () {
  this.timeout(60_000);
  let api: TestApi;
  let probes: ProbeServer;
  const scrape = async () => {
    const response = await get(`${probes.url}/metrics`);
    expect(response.status).to.equal(200);
    expect(response.type).to.contain("text/plain");
    return response.text;
  };
  const count = (text: string, name: string, labels: Record<string, string>) =>
    sampleValue(text, name, labels) ?? 0;

  before(async () => {
    api = await startTestApi({ deps: { decisions: { chains: CHAINS } } });
    await setCheckpoints(api.db.pool);
    probes = await startProbeServer({
      host: "127.0.0.1",
      port: 0,
      readiness: new Readiness(),
      log: silentLogger(),
    });
  });
  after(async () => {
    await probes.close();
    await api.close();
  });

  it("counts requests by route and status, decisions by value and reason, 429s and idempotency outcomes", async () => {
    const live = await issueKey(api, "production", { scopes: ["launch:validate"], rateLimitPerMinute: 3 });
    const before = await scrape();
    const validate = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
      api.call({
        method: "POST",
        path: "/api/v1/launches/validate",
        headers: { ...bearer(live.secret), ...headers },
        body,
      });
    const body = { chain: "hardhat", name: "Metric Coin", ticker: "MTRC", launcher: EVM_OTHER };
    expect((await validate(body, { "idempotency-key": "m-1" })).status).to.equal(200);
    expect((await validate(body, { "idempotency-key": "m-1" })).status).to.equal(200); // replayed
    const conflict = await validate({ ...body, name: "Other Coin" }, { "idempotency-key": "m-1" });
    expect(conflict.status).to.equal(422);
    expect((await validate(body)).status).to.equal(429); // the fourth call in the minute
    expect((await api.call({ path: "/api/v1/health" })).status).to.equal(200);
    const after = await scrape();

    const delta = (name: string, labels: Record<string, string>) =>
      count(after, name, labels) - count(before, name, labels);
    expect(delta("http_request_duration_seconds_count", { route: VALIDATE, status: "200" })).to.equal(2);
    expect(delta("http_request_duration_seconds_count", { route: VALIDATE, status: "422" })).to.equal(1);
    expect(delta("http_request_duration_seconds_count", { route: VALIDATE, status: "429" })).to.equal(1);
    expect(
      delta("http_request_duration_seconds_count", { route: "GET /api/v1/health", status: "200" }),
    ).to.equal(1);
    expect(delta("http_rate_limited_total", { route: VALIDATE })).to.equal(1);
    expect(
      delta("decisions_total", { environment: "production", decision: "allow", reason: "no_conflict" }),
    ).to.equal(1);
    expect(delta("idempotency_outcomes_total", { outcome: "replayed" })).to.equal(1);
    expect(delta("idempotency_outcomes_total", { outcome: "conflict" })).to.equal(1);
    // The batched statements behind them: each validation's key check with its snapshot, and the one record.
    const admission = { statement: "decisions.admitted_snapshots" };
    const record = { statement: "decisions.record" };
    expect(delta("database_batch_size_sum", admission)).to.equal(4);
    expect(delta("database_batch_size_sum", record)).to.equal(1);
    expect(delta("database_batch_held_seconds_count", record)).to.equal(1);
    expect(delta("database_batch_duration_seconds_count", { ...record, outcome: "ok" })).to.equal(1);
    expect(delta("database_batch_duration_seconds_sum", { ...record, outcome: "ok" })).to.be.above(0);
    expect(after).to.contain("process_resident_memory_bytes");
  });

  it("is not served on the public API", async () => {
    expect((await send(api.url, { path: "/metrics" })).status).to.equal(404);
    expect((await send(api.url, { path: "/api/metrics" })).status).to.equal(404);
  });

  it("computes the database gauges when scraped: chain lag, seconds since indexed, outbox backlog and age", async () => {
    const pool = api.db.pool;
    await pool.query(
      `UPDATE chain_checkpoints SET head_number = 130, indexed_number = 100, indexed_at = now() - interval '42 seconds'
       WHERE chain = 'hardhat'`,
    );
    await pool.query("UPDATE domain_events SET dispatched_at = now() WHERE dispatched_at IS NULL");
    await pool.query(
      `INSERT INTO domain_events (type, environment, partner_id, payload, created_at)
       VALUES ('launch.blocked', 'production', NULL, '{}', now() - interval '90 seconds'),
              ('launch.blocked', 'production', NULL, '{}', now())`,
    );
    const server = await startProbeServer({
      host: "127.0.0.1",
      port: 0,
      readiness: new Readiness(),
      log: silentLogger(),
      collectors: [databaseGauges(pool)],
    });
    try {
      const text = (await get(`${server.url}/metrics`)).text;
      expect(sampleValue(text, "chain_lag_blocks", { chain: "hardhat", family: "evm" })).to.equal(30);
      expect(sampleValue(text, "chain_seconds_since_indexed", { chain: "hardhat", family: "evm" }))
        .to.be.at.least(42)
        .and.below(60);
      expect(sampleValue(text, "outbox_backlog", { stage: "fan_out" })).to.equal(2);
      expect(sampleValue(text, "outbox_oldest_undelivered_age_seconds", { stage: "fan_out" }))
        .to.be.at.least(89)
        .and.below(120);
      expect(sampleValue(text, "outbox_backlog", { stage: "delivery" })).to.equal(0);
    } finally {
      await server.close();
    }
  });
});
