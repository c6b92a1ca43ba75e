import { expect } from "chai";
import { requestHashOf } from "../../../api/platform/idempotency";
import { ExecutionCounter, FIXTURE_PATHS, fixtureRoutes } from "../support/fixtureRoutes";
import { bearer, expectEnvelope, issueKey, startTestApi, type TestApi } from "../support/harness";

const PATH = `/api${FIXTURE_PATHS.idempotent}`;

describe("api: idempotency (Idempotency-Key or body nonce, on Postgres)", () => {
  let api: TestApi;
  let counter: ExecutionCounter;
  let key: { secret: string; keyId: string };

  before(async () => {
    counter = new ExecutionCounter();
    api = await startTestApi({ extraRoutes: [fixtureRoutes(counter)] });
    key = await issueKey(api, "production");
  });
  after(async () => api.close());

  const post = (body: object, headers: Record<string, string> = {}, secret = key.secret) =>
    api.call({ method: "POST", path: PATH, body, headers: { ...bearer(secret), ...headers } });

  it("replays the stored status and body for a retry with the same Idempotency-Key", async () => {
    const first = await post({ value: "replay" }, { "idempotency-key": "k-replay" });
    expect(first.status).to.equal(200);
    expect(first.headers["idempotency-replayed"]).to.equal(undefined);
    const retry = await post({ value: "replay" }, { "idempotency-key": "k-replay" });
    expect(retry.status).to.equal(200);
    expect(retry.headers["idempotency-replayed"]).to.equal("true");
    expect(retry.body).to.deep.equal(first.body);
    expect(counter.of("replay")).to.equal(1);
  });

  it("uses the body nonce when there is no header", async () => {
    await post({ value: "nonce", nonce: "n-1" });
    const retry = await post({ value: "nonce", nonce: "n-1" });
    expect(retry.headers["idempotency-replayed"]).to.equal("true");
    expect(counter.of("nonce")).to.equal(1);
  });

  it("executes every time without a key", async () => {
    await post({ value: "keyless" });
    await post({ value: "keyless" });
    expect(counter.of("keyless")).to.equal(2);
  });

  it("refuses the same key with a different body (idempotency_key_reused) and does not execute", async () => {
    await post({ value: "original" }, { "idempotency-key": "k-reused" });
    const reused = await post({ value: "different" }, { "idempotency-key": "k-reused" });
    expectEnvelope(reused, 422, "idempotency_key_reused");
    expect(counter.of("different")).to.equal(0);
  });

  it("treats the same body with keys in another order as the same request", async () => {
    await api.call({
      method: "POST",
      path: PATH,
      headers: { ...bearer(key.secret), "idempotency-key": "k-order", "content-type": "application/json" },
      body: '{"value":"order","delayMs":0}',
    });
    const retry = await api.call({
      method: "POST",
      path: PATH,
      headers: { ...bearer(key.secret), "idempotency-key": "k-order", "content-type": "application/json" },
      body: '{"delayMs":0,"value":"order"}',
    });
    expect(retry.headers["idempotency-replayed"]).to.equal("true");
    expect(counter.of("order")).to.equal(1);
  });

  it("answers a concurrent duplicate with 409 and never executes twice", async () => {
    const slow = post({ value: "concurrent", delayMs: 400 }, { "idempotency-key": "k-concurrent" });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const duplicates = await Promise.all(
      [1, 2, 3].map(() => post({ value: "concurrent", delayMs: 400 }, { "idempotency-key": "k-concurrent" })),
    );
    for (const duplicate of duplicates) expectEnvelope(duplicate, 409, "idempotency_in_progress");
    expect((await slow).status).to.equal(200);
    const after = await post({ value: "concurrent", delayMs: 400 }, { "idempotency-key": "k-concurrent" });
    expect(after.headers["idempotency-replayed"]).to.equal("true");
    expect(counter.of("concurrent")).to.equal(1);
  });

  it("scopes keys per API key: another key with the same Idempotency-Key executes on its own", async () => {
    const other = await issueKey(api, "production");
    await post({ value: "scoped" }, { "idempotency-key": "k-scoped" });
    const second = await post({ value: "scoped" }, { "idempotency-key": "k-scoped" }, other.secret);
    expect(second.headers["idempotency-replayed"]).to.equal(undefined);
    expect(counter.of("scoped")).to.equal(2);
  });

  it("does not store failures: a 503 or a crash can be retried and executes again", async () => {
    expectEnvelope(
      await post({ value: "flaky", outcome: "unavailable" }, { "idempotency-key": "k-flaky" }),
      503,
      "service_unavailable",
    );
    expect(
      (await post({ value: "flaky", outcome: "unavailable" }, { "idempotency-key": "k-flaky" })).status,
    ).to.equal(503);
    expectEnvelope(
      await post({ value: "crash", outcome: "throw" }, { "idempotency-key": "k-crash" }),
      500,
      "internal_error",
    );
    expectEnvelope(
      await post({ value: "crash", outcome: "throw" }, { "idempotency-key": "k-crash" }),
      500,
      "internal_error",
    );
    expect(counter.of("flaky")).to.equal(2);
    expect(counter.of("crash")).to.equal(2);
  });

  it("keeps records for 24 hours, then a retry executes anew", async () => {
    await post({ value: "retention" }, { "idempotency-key": "k-retention" });
    const { rows } = await api.db.pool.query<{ hours: number }>(
      "SELECT extract(epoch FROM expires_at - created_at) / 3600 AS hours FROM idempotency_records WHERE idempotency_key = $1",
      ["k-retention"],
    );
    expect(Number(rows[0]?.hours)).to.equal(24);
    await api.db.pool.query(
      "UPDATE idempotency_records SET expires_at = now() - interval '1 second' WHERE idempotency_key = $1",
      ["k-retention"],
    );
    const afterExpiry = await post({ value: "retention" }, { "idempotency-key": "k-retention" });
    expect(afterExpiry.headers["idempotency-replayed"]).to.equal(undefined);
    expect(counter.of("retention")).to.equal(2);
  });

  it("lets a retry take over a record left in progress by a process that died", async () => {
    const route = `POST /api${FIXTURE_PATHS.idempotent}`;
    await api.db.pool.query(
      `INSERT INTO idempotency_records (key_id, route, idempotency_key, request_hash, state, locked_at, expires_at)
       VALUES ($1, $2, 'k-orphan', $3, 'in_progress', now() - interval '2 minutes', now() + interval '1 day')`,
      [key.keyId, route, requestHashOf(route, { value: "orphan" })],
    );
    const retry = await post({ value: "orphan" }, { "idempotency-key": "k-orphan" });
    expect(retry.status).to.equal(200);
    expect(counter.of("orphan")).to.equal(1);
  });

  it("rejects an Idempotency-Key that is not 1-255 visible ASCII characters", async () => {
    expectEnvelope(
      await post({ value: "bad-key" }, { "idempotency-key": "x".repeat(256) }),
      400,
      "invalid_request",
    );
    expect(counter.of("bad-key")).to.equal(0);
  });
});
