import { expect } from "chai";
import type { SignedDecision } from "../../../core/decision";
import { type DecisionRecord, decisionRecorder } from "../../../services/identity/decisionRecorder";
import { createPool } from "../../../storage/pool";
import { createTestDatabase, type TestDatabase } from "../../support/testDatabase";

function recordOf(index: number, events = 1): DecisionRecord {
  const decision = {
    version: "svc-decision-v1",
    requestId: `dec_test_${index}_${Math.random()}`,
    identityKey: `NAME${index}::TK`,
    normalizedName: `NAME${index}`,
    normalizedTicker: "TK",
    chain: "hardhat",
    launchpadId: "pad",
    launcher: "0x1111111111111111111111111111111111111111",
    decision: "block",
    reason: "active_reservation",
    issuedAt: "2026-11-22T12:00:00.000Z",
    expiresAt: "2026-11-22T12:05:00.000Z",
    environment: "production",
    signature: "c2ln",
    signatureAlg: "ed25519",
    keyId: "live-1",
  } satisfies SignedDecision;
  return {
    decision,
    partnerId: "partner-1",
    apiKeyId: "key-1",
    status: "blocked",
    events: Array.from({ length: events }, (_, n) => ({
      type: n === 0 ? ("launch.blocked" as const) : ("identity.blocked_attempt" as const),
      environment: "production" as const,
      partnerId: "partner-1",
      payload: { identityKey: decision.identityKey },
    })),
  };
}

describe("decisions: group-committed decision recorder", () => {
  let db: TestDatabase;
  before(async () => {
    db = await createTestDatabase();
  });
  after(async () => db.close());

  it("records every concurrent decision with exactly its events", async () => {
    const recorder = decisionRecorder(db.pool);
    const records = Array.from({ length: 40 }, (_, index) => recordOf(index, (index % 3) as 0 | 1 | 2));
    await Promise.all(records.map((record) => recorder.record(record)));
    const decisions = await db.pool.query("SELECT count(*)::int AS n FROM decisions");
    const events = await db.pool.query("SELECT count(*)::int AS n FROM domain_events");
    expect([decisions.rows[0].n, events.rows[0].n]).to.deep.equal([
      40,
      records.reduce((sum, r) => sum + r.events.length, 0),
    ]);
    const one = records[5] as DecisionRecord;
    const { rows } = await db.pool.query(
      "SELECT signed->>'signature' AS signature, status FROM decisions WHERE request_id = $1",
      [one.decision.requestId],
    );
    expect(rows[0]).to.deep.equal({ signature: "c2ln", status: "blocked" });
  });

  it("a batch that cannot be written fails every decision in it", async () => {
    const unreachable = createPool({
      connectionString: "postgres://postgres@127.0.0.1:1/none",
      connectionTimeoutMillis: 500,
    });
    unreachable.on("error", () => undefined);
    const recorder = decisionRecorder(unreachable);
    const outcomes = await Promise.allSettled(
      [recordOf(100), recordOf(101)].map((record) => recorder.record(record)),
    );
    expect(outcomes.map((outcome) => outcome.status)).to.deep.equal(["rejected", "rejected"]);
    await unreachable.end();
  });
});
