// The EVM indexer's readiness means indexing has begun: `npm start` starts the API and the worker once
// `ready` resolves, so by then every chain has a checkpoint with an indexed block. A chain with only a head
// reads as not indexed, which the worker's first posture sample would announce as chain.degraded and hold
// for the recovery dwell although Ponder wrote its first checkpoint a moment later.
import { expect } from "chai";
import { DEFAULT_FRESHNESS_BOUND_SECONDS } from "../../core/status";
import type { EvmIndexer } from "../../indexer/evm/run";
import { DEFAULT_RECOVERY_DWELL_MS, sampleChainPostures } from "../../services/mirror";
import { readWatchdogStates } from "../../services/mirror/chainPosture";
import { createTestDatabase, type TestDatabase } from "../support/testDatabase";
import { type HardhatChain, startHardhatChain } from "./support/hardhatChain";
import { closeIndexerDatabase, startTestEvmIndexer } from "./support/ponderIndexer";

const CHAIN = "hardhat-readiness";

describe("EVM indexer readiness: a freshly started chain", function () {
  this.timeout(120_000);
  let database: TestDatabase;
  let chain: HardhatChain;
  let indexer: EvmIndexer | undefined;
  const deploymentSchema = `evm_ready_${Date.now().toString(36)}`;

  before(async () => {
    [database, chain] = await Promise.all([createTestDatabase(), startHardhatChain(CHAIN)]);
  });

  after(async () => {
    await indexer?.stop();
    await chain?.stop();
    if (database) await closeIndexerDatabase(database, deploymentSchema);
  });

  it("is ready once its checkpoint is recorded, so a posture sampled then reads healthy", async () => {
    indexer = await startTestEvmIndexer(database, chain.manifestPath, deploymentSchema);
    await indexer.ready;
    expect(indexer.indexing()).to.equal(null);
    const { rows } = await database.pool.query<{ indexed_number: string | null }>(
      "SELECT indexed_number FROM chain_checkpoints WHERE chain = $1",
      [CHAIN],
    );
    expect(rows[0]?.indexed_number, "an indexed block is recorded").to.be.a("string");

    // What the worker's first sample does right after `npm start` has started it.
    const announced = await sampleChainPostures(database.pool, {
      now: new Date(),
      boundSeconds: DEFAULT_FRESHNESS_BOUND_SECONDS,
      dwellMs: DEFAULT_RECOVERY_DWELL_MS,
    });
    expect(announced).to.deep.equal([]);
    const [watchdog] = await readWatchdogStates(database.pool, [CHAIN], Date.now());
    expect(watchdog?.posture).to.equal("healthy");
  });
});
