// Two EVM chains (two Hardhat nodes, chain ids 31337 and 1337) in one manifest, one Ponder indexing both, as
// `npm run indexer:evm` does for every EVM chain of a deployment. One chain reorgs (evm_snapshot, evm_revert, a
// different block at the same height) while the other goes on indexing: the other chain's mirror rows and
// checkpoint must never move back, since nothing changed on that chain.
import { expect } from "chai";
import type { EvmIndexer } from "../../indexer/evm/run";
import { createTestDatabase, type TestDatabase } from "../support/testDatabase";
import { expectMirrorEqualsRegistry, registriesOf } from "./support/copycat";
import { type HardhatChain, manifestOfChains, startHardhatChain } from "./support/hardhatChain";
import { closeIndexerDatabase, startTestEvmIndexer } from "./support/ponderIndexer";
import {
  awaitMirrored,
  type MirrorSample,
  mirrorRows,
  mirrorSample,
  sampleMirror,
  waitFor,
} from "./support/readModel";

const REORGED = "hardhat-reorged";
const STEADY = "hardhat-steady";

/** How a chain's mirror moved back from one reading to the next: a row gone or changed, the checkpoint set back. */
function setBacksBetween(previous: MirrorSample, next: MirrorSample): string[] {
  const rows = new Map(next.rows.map((row) => [row.name_hash, JSON.stringify(row)]));
  const moved = previous.rows
    .filter((row) => rows.get(row.name_hash) !== JSON.stringify(row))
    .map((row) => `row ${row.name_hash} moved`);
  const indexed =
    next.indexedNumber < previous.indexedNumber
      ? [`indexed ${previous.indexedNumber} -> ${next.indexedNumber}`]
      : [];
  const rewound =
    next.rewoundFrom !== previous.rewoundFrom
      ? [`rewound_from ${previous.rewoundFrom} -> ${next.rewoundFrom}`]
      : [];
  return [...moved, ...indexed, ...rewound];
}

/** Every set-back over consecutive readings, named by the reading that shows it. */
function setBacks(samples: readonly MirrorSample[]): string[] {
  return samples
    .slice(1)
    .flatMap((sample, index) =>
      setBacksBetween(samples[index] as MirrorSample, sample).map((each) => `reading ${index + 1}: ${each}`),
    );
}

describe("EVM indexer: a reorg on one chain while another chain indexes in the same Ponder", function () {
  this.timeout(180_000);
  let database: TestDatabase;
  let reorged: HardhatChain;
  let steady: HardhatChain;
  let indexer: EvmIndexer;
  let manifestPath: string;
  const deploymentSchema = `evm_multichain_${Date.now().toString(36)}`;

  before(async () => {
    [database, reorged, steady] = await Promise.all([
      createTestDatabase(),
      startHardhatChain(REORGED),
      startHardhatChain(STEADY, { secondChainId: true }),
    ]);
    manifestPath = manifestOfChains([reorged, steady]);
    indexer = await startTestEvmIndexer(database, manifestPath, deploymentSchema, { restartOnExit: false });
    await indexer.ready;
  });

  after(async () => {
    await indexer?.stop();
    await Promise.all([reorged?.stop(), steady?.stop()]);
    if (database) await closeIndexerDatabase(database, deploymentSchema);
  });

  it("moves none of the other chain's rows and never sets its checkpoint back while it reverts the reorged chain", async () => {
    const [orphanWallet, canonicalWallet] = reorged.wallets;
    const [before, after, during] = steady.wallets;
    if (!orphanWallet || !canonicalWallet || !before || !after || !during) throw new Error("no wallets");
    const pool = database.pool;
    await awaitMirrored(pool, STEADY, await steady.reserve(before, "steady before", "STBF"));
    // Both commit before the snapshot: the reorg replaces one block, a reveal by another.
    const orphanCommitted = await reorged.commit(orphanWallet, "orphaned pair", "ORPH");
    const canonicalCommitted = await reorged.commit(canonicalWallet, "canonical pair", "CANO");
    const snapshot = await reorged.rpc<string>("evm_snapshot");
    const orphan = await orphanCommitted.reveal();
    await awaitMirrored(pool, REORGED, orphan);
    // Indexed after the orphan, so Ponder's revert of the reorged chain could reach it.
    await awaitMirrored(pool, STEADY, await steady.reserve(after, "steady after", "STAF"));

    const samples = sampleMirror(pool, STEADY, 10);
    await reorged.rpc("evm_revert", [snapshot]);
    const [canonical, meanwhile] = await Promise.all([
      canonicalCommitted.reveal(),
      steady.reserve(during, "steady during", "STDU"),
    ]);
    expect(canonical.blockNumber).to.equal(orphan.blockNumber);
    await reorged.rpc("hardhat_mine", ["0x3"]);
    await waitFor(
      () => mirrorRows(pool, REORGED),
      (rows) =>
        rows.some((row) => row.tx_hash === canonical.hash) &&
        !rows.some((row) => row.tx_hash === orphan.hash),
    );
    await waitFor(
      () => mirrorRows(pool, STEADY),
      (rows) => rows.some((row) => row.tx_hash === meanwhile.hash),
    );
    const readings = await samples.stop();

    expect(setBacks(readings), `${readings.length} readings of ${STEADY}`).to.deep.equal([]);
    await awaitMirrored(pool, STEADY, meanwhile);
    expect(readings.at(-1)?.rewoundFrom, `${STEADY} never rewound`).to.equal(null);
    expect((await mirrorSample(pool, REORGED)).rewoundFrom, `${REORGED} rewound`).to.equal(
      orphan.blockNumber,
    );
    const registries = registriesOf(manifestPath);
    await expectMirrorEqualsRegistry(pool, registries, REORGED, [{ name: "canonical pair", ticker: "CANO" }]);
    await expectMirrorEqualsRegistry(pool, registries, STEADY, [
      { name: "steady before", ticker: "STBF" },
      { name: "steady after", ticker: "STAF" },
      { name: "steady during", ticker: "STDU" },
    ]);
  });
});
