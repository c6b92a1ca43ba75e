// The Solana indexer role (`npm run indexer:solana`) under its watchdog: an RPC proxy in front of the local chain
// stops answering the indexer's calls while getSlot still answers, so the head moves and the checkpoint does not.
// The role is unready until its loop completes a pass; once the checkpoint has been behind the head, unmoved, for
// the stall time, the loop is restarted (its hung call abandoned), the restart is audited, counted in the role's
// metrics and in /v1/health, the chain is announced degraded (indexer_stalled), and the role is unready until
// the checkpoint moves again after the proxy answers again.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "chai";
import { mirrorService, sampleChainPostures } from "../../services/mirror";
import { type RoleProcess, roleDatabaseUrl, startRoleProcess } from "../support/roleProcess";
import { createTestDatabase, freePort, type TestDatabase } from "../support/testDatabase";
import { get, sampleValue } from "../telemetry/support";
import { type HoldingRpcProxy, startHoldingRpcProxy } from "./support/holdingRpcProxy";
import { indexedNumber, mirrorRows, waitFor } from "./support/readModel";
import { type SolanaTestChain, startSolanaTestChain } from "./support/solanaChain";

const CHAIN = "solana-watchdog";
const STALL_MS = 2000;
const CONDITION = `indexing ${CHAIN}`;

describe("Solana indexer watchdog: a hung loop is restarted; readiness follows the loop", function () {
  this.timeout(180_000);
  let database: TestDatabase;
  let chain: SolanaTestChain;
  let proxy: HoldingRpcProxy;
  let role: RoleProcess | undefined;
  let folder: string;

  before(async () => {
    [database, chain] = await Promise.all([createTestDatabase(), startSolanaTestChain(CHAIN)]);
    proxy = await startHoldingRpcProxy(chain.entry.rpcUrl);
    folder = mkdtempSync(join(tmpdir(), "svc-solana-watchdog-"));
  });

  after(async () => {
    proxy?.release();
    await role?.stop();
    await proxy?.close();
    await chain?.stop();
    await database?.close();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  const readyz = async (probes: string) => {
    const answer = await get(`${probes}/readyz`);
    const body = JSON.parse(answer.text) as { ready: boolean; checks: Record<string, string> };
    return { status: answer.status, ...body };
  };
  const indexedSlot = async () => Number(await indexedNumber(database.pool, CHAIN));
  const restartAudits = async () => {
    const { rows } = await database.pool.query<{ actor: string; details: { stalledMs: number } }>(
      "SELECT actor, details FROM audit_log WHERE action = 'indexer.restarted' AND subject = $1 ORDER BY at",
      [`chain:${CHAIN}`],
    );
    return rows;
  };
  const watchdogLines = () =>
    (role?.output() ?? "")
      .split("\n")
      .filter((line) => line.includes('"msg":"watchdog: '))
      .map((line) => (JSON.parse(line) as { msg: string }).msg);

  it("restarts a hung loop, announces it, and is unready until the loop has passed and the checkpoint moves", async () => {
    const manifestPath = join(folder, "manifest.json");
    writeFileSync(manifestPath, JSON.stringify({ evm: [], solana: [{ ...chain.entry, rpcUrl: proxy.url }] }));
    const metricsPort = await freePort();
    const probes = `http://127.0.0.1:${metricsPort}`;
    // Nothing answers the indexer but getSlot: its first pass cannot complete.
    proxy.hold(["getSlot"]);
    role = startRoleProcess("indexer/solana/main.ts", {
      DATABASE_URL: roleDatabaseUrl(database),
      DEPLOYMENT_MANIFEST: manifestPath,
      SOLANA_COMMITMENT: "confirmed",
      SOLANA_POLL_INTERVAL_MS: "100",
      INDEXER_STALL_MS: String(STALL_MS),
      METRICS_HOST: "127.0.0.1",
      METRICS_PORT: String(metricsPort),
      LOG_LEVEL: "info",
    });
    await role.printed(`following ${CHAIN}`);
    const starting = await readyz(probes);
    expect(starting.status, JSON.stringify(starting)).to.equal(503);
    expect(starting.checks).to.include({ migrations: "ok", database: "ok" });
    expect(starting.checks[CONDITION]).to.match(/has not completed a pass yet|restarted by the watchdog/);

    proxy.release();
    const running = await waitFor(
      () => readyz(probes),
      (state) => state.status === 200,
      60_000,
    );
    expect(running.checks[CONDITION]).to.equal("ok");
    const before = await chain.reserve(chain.newLauncher(), "before the stall", "WDSB");
    await waitFor(
      () => mirrorRows(database.pool, CHAIN),
      (rows) => rows.some((row) => row.tx_hash === before),
    );
    const restartsBefore = (await restartAudits()).length;
    const linesBefore = watchdogLines().length;
    await sampleChainPostures(database.pool, { now: new Date(), boundSeconds: 60, dwellMs: 0 });

    // The loop hangs on a call; the head keeps moving.
    proxy.hold(["getSlot"]);
    const abandonedBefore = proxy.counts().abandoned;
    const during = await chain.reserve(chain.newLauncher(), "during the stall", "WDSD");
    await waitFor(
      async () => watchdogLines().length,
      (count) => count > linesBefore,
      60_000,
    );
    // Unmoved since the stall began, and from here on: the abandoned pass writes nothing more.
    const stalledAt = await indexedSlot();
    expect(watchdogLines().at(-1)).to.match(
      /^watchdog: solana-watchdog is at \d+, its head at \d+, and has not moved for \d+ ms; restarting the Solana loop$/,
    );
    // The hung call was abandoned, not waited out (the RPC timeout is 10 s, the stall time 2 s).
    expect(
      (await waitFor(
        async () => proxy.counts().abandoned,
        (count) => count > abandonedBefore,
      )) - abandonedBefore,
    ).to.be.at.least(1);
    // While the restarted loop cannot pass, the role is unready and the checkpoint has not moved.
    const restarting = await readyz(probes);
    expect(restarting.status).to.equal(503);
    expect(restarting.checks[CONDITION]).to.match(/has not completed a pass yet|restarted by the watchdog/);
    expect(await indexedSlot()).to.equal(stalledAt);

    const audits = await waitFor(restartAudits, (rows) => rows.length > restartsBefore);
    expect(audits.at(-1)?.actor).to.equal("watchdog");
    expect(audits.at(-1)?.details.stalledMs).to.be.at.least(STALL_MS);
    // The worker's posture job announces it.
    expect(
      await sampleChainPostures(database.pool, { now: new Date(), boundSeconds: 60, dwellMs: 0 }),
    ).to.deep.equal([{ chain: CHAIN, announced: "degraded" }]);
    const { rows: announced } = await database.pool.query<{ payload: { state: string; reason: string } }>(
      "SELECT payload FROM domain_events WHERE type = 'chain.degraded' ORDER BY id",
    );
    expect(announced.at(-1)?.payload).to.include({ state: "degraded", reason: "indexer_stalled" });

    // The proxy answers again: the new loop passes, the checkpoint moves, the role is ready again.
    proxy.release();
    await waitFor(
      () => mirrorRows(database.pool, CHAIN),
      (rows) => rows.some((row) => row.tx_hash === during),
      60_000,
    );
    expect(await waitFor(indexedSlot, (slot) => slot > stalledAt)).to.be.greaterThan(stalledAt);
    await waitFor(
      () => readyz(probes),
      (state) => state.status === 200,
      60_000,
    );
    // Healthy again for the (zero) dwell: the recovery is announced (at the first sample with no restart since
    // the one before it: the restarted loop, still held, may have been restarted again).
    expect(
      await waitFor(
        () => sampleChainPostures(database.pool, { now: new Date(), boundSeconds: 60, dwellMs: 0 }),
        (changes) => changes.length > 0,
      ),
    ).to.deep.equal([{ chain: CHAIN, announced: "recovered" }]);

    // Every restart shows in the role's metrics and in /v1/health.
    const restarts = (await restartAudits()).length;
    const metrics = await get(`${probes}/metrics`);
    expect(
      sampleValue(metrics.text, "indexer_watchdog_restarts_total", { chain: CHAIN, family: "solana" }),
    ).to.equal(restarts);
    const health = await mirrorService(database.pool, Date.now).health();
    if (!health.ok) throw new Error("health probe failed");
    expect(health.watchdog.find((state) => state.chain === CHAIN)?.restartsLast24h).to.equal(restarts);

    expect(await role.stop(), role.output()).to.equal(0);
    role = undefined;
  });
});
