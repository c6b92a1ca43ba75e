// The watchdog restarts a stalled Ponder: its process is stopped (SIGSTOP, so it neither exits nor indexes) while
// the chain keeps making blocks; once the checkpoint has been behind the head, unmoved, for the stall time, the
// runner kills and restarts it, audits the restart, and a reservation made afterwards reaches the mirror. The
// indexer's readiness (the role's /readyz) is pending until Ponder answers, and from the restart until the
// checkpoint moves again.
import { expect } from "chai";
import type { EvmIndexer } from "../../indexer/evm/run";
import { mirrorService } from "../../services/mirror";
import { metricsRegistry } from "../../telemetry/metrics";
import { createTestDatabase, type TestDatabase } from "../support/testDatabase";
import { sampleValue } from "../telemetry/support";
import { type HardhatChain, startHardhatChain } from "./support/hardhatChain";
import { closeIndexerDatabase, startTestEvmIndexer } from "./support/ponderIndexer";
import { awaitMirrored, waitFor } from "./support/readModel";

const CHAIN = "hardhat-watchdog";
const STALL_MS = 4000;

describe("EVM indexer watchdog: a stopped Ponder is restarted", function () {
  this.timeout(240_000);
  let database: TestDatabase;
  let chain: HardhatChain;
  let indexer: EvmIndexer | undefined;
  let miner: NodeJS.Timeout | undefined;
  const deploymentSchema = `evm_wd_${Date.now().toString(36)}`;
  const lines: string[] = [];

  before(async () => {
    [database, chain] = await Promise.all([createTestDatabase(), startHardhatChain(CHAIN)]);
  });

  after(async () => {
    clearInterval(miner);
    indexer?.kill("SIGCONT");
    await indexer?.stop();
    await chain?.stop();
    if (database) await closeIndexerDatabase(database, deploymentSchema);
  });

  /** The indexer's readiness at each watchdog line, read as the line is logged. */
  const indexingAtRestart: Array<string | null> = [];
  const log = (line: string) => {
    lines.push(line);
    if (line.startsWith("watchdog: ")) indexingAtRestart.push(indexer?.indexing() ?? "no indexer");
  };
  const logged = (pattern: RegExp) => lines.some((line) => pattern.test(line));
  const reservationIsMirrored = async (name: string) => {
    const wallet = chain.wallets[name.length % chain.wallets.length];
    if (!wallet) throw new Error("no wallet");
    await awaitMirrored(database.pool, CHAIN, await chain.reserve(wallet, name, "WDOG"));
  };

  it("restarts Ponder once its checkpoint stalls behind a moving head, audits it, and indexes again", async () => {
    indexer = await startTestEvmIndexer(database, chain.manifestPath, deploymentSchema, {
      restartBackoff: { initialDelayMs: 200, maxDelayMs: 500 },
      stallMs: STALL_MS,
      log,
    });
    expect(indexer.indexing()).to.equal("Ponder has not answered /health yet");
    await indexer.ready;
    expect(indexer.indexing()).to.equal(null);
    await reservationIsMirrored("before the stall");
    expect(logged(/^watchdog: /), "a healthy Ponder was restarted").to.equal(false);

    indexer.kill("SIGSTOP");
    const stoppedAt = Date.now();
    miner = setInterval(() => void chain.rpc("evm_mine").catch(() => undefined), 300);
    await waitFor(
      async () =>
        logged(
          /^watchdog: hardhat-watchdog is at \d+, its head at \d+, and has not moved for \d+ ms; restarting Ponder$/,
        ),
      (done) => done,
      60_000,
    );
    expect(Date.now() - stoppedAt).to.be.at.least(STALL_MS);
    await waitFor(
      async () => logged(/^Ponder failed \(attempt \d+\), retrying in \d+ ms: exited \(SIGKILL\)$/),
      (done) => done,
    );
    expect(indexingAtRestart[0]).to.match(
      /^restarted by the watchdog; waiting for the checkpoint of hardhat-watchdog to move$/,
    );
    clearInterval(miner);
    await reservationIsMirrored("after the restart").catch((error) => {
      console.log(lines.join("\n"));
      throw error;
    });

    expect(
      await waitFor(
        async () => indexer?.indexing(),
        (state) => state === null,
      ),
    ).to.equal(null);

    const { rows } = await database.pool.query<{ actor: string; details: { stalledMs: number } }>(
      "SELECT actor, details FROM audit_log WHERE action = 'indexer.restarted' AND subject = $1",
      [`chain:${CHAIN}`],
    );
    expect(rows.length).to.be.at.least(1);
    expect(rows[0]?.actor).to.equal("watchdog");
    expect(rows[0]?.details.stalledMs).to.be.at.least(STALL_MS);
    const health = await mirrorService(database.pool, Date.now).health();
    if (!health.ok) throw new Error("health probe failed");
    expect(health.watchdog.find((state) => state.chain === CHAIN)?.restartsLast24h).to.equal(rows.length);
    expect(
      sampleValue(await metricsRegistry.metrics(), "indexer_watchdog_restarts_total", {
        chain: CHAIN,
        family: "evm",
      }),
    ).to.equal(rows.length);
  });
});
