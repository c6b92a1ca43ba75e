// chain.degraded: each chain's data-path posture announced once per transition, by one of any number of workers,
// without a flood from a flapping chain; and the worker announces on its own.
import { expect } from "chai";
import { sampleChainPostures } from "../../../services/mirror";
import { nextPosture, type Posture } from "../../../services/mirror/chainPosture";
import { startWorker } from "../../../worker";
import { createTestDatabase, type TestDatabase } from "../../support/testDatabase";

const T0 = new Date("2026-11-23T12:00:00.000Z");
const MINUTE = 60_000;
const DWELL = 5 * MINUTE;
const at = (ms: number) => new Date(T0.getTime() + ms);

describe("mirror: chain posture (chain.degraded)", function () {
  this.timeout(60_000);
  let db: TestDatabase;

  before(async () => {
    db = await createTestDatabase();
  });
  after(async () => db?.close());
  beforeEach(async () => {
    await db.pool.query("TRUNCATE chain_checkpoints, chain_postures, domain_events, audit_log");
  });

  /** The indexer of `chain` confirmed it is caught up at `indexedAt` (what a running indexer writes). */
  const indexed = (chain: string, indexedAt: Date) =>
    db.pool.query(
      `INSERT INTO chain_checkpoints (chain, family, head_number, head_seen_at, indexed_number, indexed_block_time, indexed_at)
       VALUES ($1, 'evm', 100, $2, 100, $2, $2)
       ON CONFLICT (chain) DO UPDATE SET head_seen_at = $2, indexed_block_time = $2, indexed_at = $2`,
      [chain, indexedAt],
    );
  const sample = (now: Date, dwellMs = DWELL) =>
    sampleChainPostures(db.pool, { now, boundSeconds: 60, dwellMs });
  const announced = async () =>
    (
      await db.pool.query<{
        environment: string;
        partner_id: string | null;
        payload: Record<string, unknown>;
      }>(
        "SELECT environment, partner_id, payload FROM domain_events WHERE type = 'chain.degraded' ORDER BY id",
      )
    ).rows;

  describe("nextPosture", () => {
    const healthy: Posture = { state: "healthy", since: T0, healthySince: null };

    it("announces a degradation at once and stays quiet while it lasts", () => {
      const degraded = nextPosture(healthy, false, at(MINUTE), DWELL);
      expect(degraded).to.deep.equal({
        next: { state: "degraded", since: at(MINUTE), healthySince: null },
        announce: "degraded",
      });
      expect(nextPosture(degraded.next, false, at(2 * MINUTE), DWELL).announce).to.equal(null);
    });

    it("announces a recovery only after the dwell time of unbroken health; a relapse restarts the wait", () => {
      const degraded: Posture = { state: "degraded", since: T0, healthySince: null };
      const first = nextPosture(degraded, true, at(MINUTE), DWELL);
      expect(first).to.deep.equal({ next: { ...degraded, healthySince: at(MINUTE) }, announce: null });
      const relapse = nextPosture(first.next, false, at(2 * MINUTE), DWELL);
      expect(relapse).to.deep.equal({ next: degraded, announce: null });
      const again = nextPosture(relapse.next, true, at(3 * MINUTE), DWELL).next;
      expect(nextPosture(again, true, at(3 * MINUTE + DWELL - 1), DWELL).announce).to.equal(null);
      expect(nextPosture(again, true, at(3 * MINUTE + DWELL), DWELL)).to.deep.equal({
        next: { state: "healthy", since: at(3 * MINUTE), healthySince: null },
        announce: "recovered",
      });
    });
  });

  it("announces a chain whose indexer stopped to every endpoint of both environments, then its recovery", async () => {
    await indexed("hardhat", T0);
    expect(await sample(T0)).to.deep.equal([]);
    // The indexer stops: two minutes later the mirror is beyond the 60 s bound.
    expect(await sample(at(2 * MINUTE))).to.deep.equal([{ chain: "hardhat", announced: "degraded" }]);
    expect(await sample(at(3 * MINUTE))).to.deep.equal([]);
    const degraded = await announced();
    expect(degraded.map((row) => [row.environment, row.partner_id])).to.deep.equal([
      ["sandbox", null],
      ["production", null],
    ]);
    expect(degraded[0]?.payload).to.include({
      chain: "hardhat",
      family: "evm",
      state: "degraded",
      reason: "mirror_behind",
      since: at(2 * MINUTE).toISOString(),
      degradedSince: null,
      freshnessBoundSeconds: 60,
    });

    // It catches up at minute 4 and keeps up: the recovery is announced once the dwell time has passed.
    for (let minute = 4; minute <= 9; minute++) {
      await indexed("hardhat", at(minute * MINUTE));
      const changes = await sample(at(minute * MINUTE));
      expect(changes, `minute ${minute}`).to.deep.equal(
        minute === 9 ? [{ chain: "hardhat", announced: "recovered" }] : [],
      );
    }
    const recovered = (await announced()).slice(2);
    expect(recovered.map((row) => row.payload)).to.deep.equal([0, 1].map(() => recovered[0]?.payload));
    expect(recovered[0]?.payload).to.include({
      state: "recovered",
      reason: null,
      since: at(4 * MINUTE).toISOString(),
      degradedSince: at(2 * MINUTE).toISOString(),
    });
  });

  it("a watchdog restart degrades a fresh chain (reason indexer_stalled), which recovers after the dwell", async () => {
    await indexed("hardhat", T0);
    expect(await sample(T0)).to.deep.equal([]);
    await indexed("hardhat", at(MINUTE));
    await db.pool.query(
      "INSERT INTO audit_log (actor, action, subject, reason, at) VALUES ('watchdog', 'indexer.restarted', 'chain:hardhat', 'stalled', $1)",
      [at(MINUTE - 1000)],
    );
    // Fresh by the freshness bound, yet degraded: its indexer was restarted since the last sample.
    expect(await sample(at(MINUTE))).to.deep.equal([{ chain: "hardhat", announced: "degraded" }]);
    expect((await announced())[0]?.payload).to.include({ state: "degraded", reason: "indexer_stalled" });
    // The restart is counted once: the next samples are healthy and the dwell runs.
    await indexed("hardhat", at(2 * MINUTE));
    expect(await sample(at(2 * MINUTE))).to.deep.equal([]);
    await indexed("hardhat", at(2 * MINUTE + DWELL));
    expect(await sample(at(2 * MINUTE + DWELL))).to.deep.equal([
      { chain: "hardhat", announced: "recovered" },
    ]);
  });

  it("a flapping chain does not flood: one degradation, and no recovery until it holds", async () => {
    // The indexer advances every 2 minutes: sampled every 30 s, fresh for 90 s then stale, for ten minutes.
    for (let step = 0; step < 20; step++) {
      const now = at(step * 30_000);
      if (step % 4 === 0) await indexed("flappy", now);
      await sample(now);
    }
    expect((await announced()).map((row) => row.payload.state)).to.deep.equal(["degraded", "degraded"]);
  });

  it("concurrent samplers (several workers) announce a transition exactly once", async () => {
    await indexed("hardhat", T0);
    await indexed("solana", T0);
    await sample(T0);
    const changes = await Promise.all([1, 2, 3, 4, 5, 6].map(() => sample(at(2 * MINUTE))));
    expect(changes.flat().sort((a, b) => a.chain.localeCompare(b.chain))).to.deep.equal([
      { chain: "hardhat", announced: "degraded" },
      { chain: "solana", announced: "degraded" },
    ]);
    expect(await announced()).to.have.length(4);
  });

  it("the worker samples on its own and logs each announcement", async () => {
    await db.pool.query(
      `INSERT INTO chain_checkpoints (chain, family, head_number, head_seen_at, indexed_number, indexed_block_time, indexed_at)
       VALUES ('stalled', 'evm', 100, now(), 100, now() - interval '1 hour', now() - interval '1 hour')`,
    );
    const lines: string[] = [];
    const worker = startWorker({
      pool: db.pool,
      registries: { production: new Map(), sandbox: new Map() },
      intervalMs: 20,
      chainPosture: { intervalMs: 20 },
      log: (line) => lines.push(line),
    });
    try {
      for (let waited = 0; (await announced()).length < 2; waited++) {
        expect(waited, "announced within 10 s").to.be.below(500);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    } finally {
      await worker.stop();
    }
    expect(lines).to.include("chain stalled: degraded");
    expect((await announced()).map((row) => row.payload.chain)).to.deep.equal(["stalled", "stalled"]);
  });
});
