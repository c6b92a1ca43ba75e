// A Ponder restart opens no window for a copycat. On every start Ponder takes the rows of its unfinalized blocks
// out of its tables (and so, through the trigger, out of the mirror) and indexes those blocks again; meanwhile
// the chain's checkpoint must not read fresh. Ponder is killed with -9 right after a reservation reached the
// mirror, on a chain that makes no block meanwhile (so the head never runs ahead of the checkpoint), while a
// copycat asks validate every 50 ms.
import { expect } from "chai";
import { freshnessOf } from "../../core/status";
import type { EvmIndexer } from "../../indexer/evm/run";
import { readCheckpoints } from "../../services/mirror/chainCatalogue";
import { createTestDatabase, type TestDatabase } from "../support/testDatabase";
import {
  type DecisionApi,
  expectMirrorEqualsRegistry,
  type Pair,
  pollAsCopycat,
  startDecisionApi,
} from "./support/copycat";
import { type HardhatChain, startHardhatChain } from "./support/hardhatChain";
import { closeIndexerDatabase, startTestEvmIndexer } from "./support/ponderIndexer";
import { awaitMirrored, mirrorRows, waitFor } from "./support/readModel";

const CHAIN = "hardhat-restart";

describe("EVM indexer restarted with kill -9 right after a reservation is mirrored", function () {
  this.timeout(240_000);
  let database: TestDatabase;
  let chain: HardhatChain;
  let decisions: DecisionApi;
  let indexer: EvmIndexer | undefined;
  const deploymentSchema = `evm_restart_${Date.now().toString(36)}`;

  before(async () => {
    [database, chain] = await Promise.all([createTestDatabase(), startHardhatChain(CHAIN)]);
    decisions = await startDecisionApi(database, chain.manifestPath);
    indexer = await startTestEvmIndexer(database, chain.manifestPath, deploymentSchema, {
      restartBackoff: { initialDelayMs: 200, maxDelayMs: 500 },
    });
    await indexer.ready;
  });

  after(async () => {
    await indexer?.stop();
    await decisions?.close();
    await chain?.stop();
    if (database) await closeIndexerDatabase(database, deploymentSchema);
  });

  const mirrored = async (pair: Pair) =>
    (await mirrorRows(database.pool, CHAIN)).some((row) => row.normalized_ticker === pair.ticker);
  const chainFresh = async () => {
    const [entry] = await readCheckpoints(database.pool, CHAIN);
    return entry !== undefined && freshnessOf(entry.checkpoint, new Date()).state === "fresh";
  };

  it("never allows a copycat of the pair through the restart, and leaves the mirror equal to the registry", async () => {
    const [earlierHolder, holder] = chain.wallets;
    if (!earlierHolder || !holder) throw new Error("no wallets");
    const earlier = { name: "restart earlier", ticker: "RSTE" };
    const pair = { name: "restart window", ticker: "RSTW" };
    await awaitMirrored(
      database.pool,
      CHAIN,
      await chain.reserve(earlierHolder, earlier.name, earlier.ticker),
    );
    await awaitMirrored(database.pool, CHAIN, await chain.reserve(holder, pair.name, pair.ticker));
    expect(await chainFresh(), "fresh before the restart").to.equal(true);

    const copycat = pollAsCopycat(decisions, CHAIN, pair, 50);
    indexer?.kill("SIGKILL");
    // The restarted Ponder waits out its predecessor's heartbeat lock (~25 s), then reverts and indexes again.
    await waitFor(
      () => mirrored(pair),
      (present) => !present,
      90_000,
    );
    await waitFor(
      () => mirrored(pair),
      (present) => present,
      60_000,
    );
    await waitFor(chainFresh, (fresh) => fresh, 30_000);
    const answers = await copycat.stop();

    const allows = answers.filter((answer) => answer.decision === "allow");
    expect(allows, `${allows.length} allows of ${answers.length} answers`).to.deep.equal([]);
    expect(answers.length, "answers through the restart").to.be.above(100);
    await expectMirrorEqualsRegistry(database.pool, decisions, CHAIN, [earlier, pair]);
  });
});
