// A chain's websocket that stays open but stops announcing heads, while blocks keep coming with times ahead of the
// service's clock. The mirror then stands still at its last announced block, and that block's time still looks
// recent: only the count of blocks the head is past it can tell the mirror is behind. Decisions meanwhile come from
// the registry (on-chain first), and Ponder falls back to polling within seconds. The websocket runs through a fault
// proxy (test/support/faultProxy.ts) whose freeze keeps the connection open and forwards nothing.
import { expect } from "chai";
import { toHex } from "viem";
import { freshnessOf, LAG_BOUND_BLOCKS } from "../../core/status";
import { HEADS_QUIET_MS } from "../../indexer/evm/headsRelay";
import type { EvmIndexer } from "../../indexer/evm/run";
import { readCheckpoints } from "../../services/mirror/chainCatalogue";
import { type FaultProxy, startFaultProxy } from "../support/faultProxy";
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
import { awaitMirrored, indexedNumber, waitFor } from "./support/readModel";

const CHAIN = "hardhat-quiet";
/** How far the chain's clock runs ahead of the service's: seconds, as a real chain's may (under the hold skew). */
const CHAIN_AHEAD_SECONDS = 20;
/** From the announcements' stop to Ponder indexing by polling: the relay's quiet time, then a few polls. */
const FALLBACK_WITHIN_MS = HEADS_QUIET_MS + 10_000;

describe("EVM indexer whose websocket stops announcing heads while blocks keep coming", function () {
  this.timeout(180_000);
  let database: TestDatabase;
  let chain: HardhatChain;
  let websocketProxy: FaultProxy;
  let decisions: DecisionApi;
  let indexer: EvmIndexer | undefined;
  let miner: NodeJS.Timeout | undefined;
  const deploymentSchema = `evm_quiet_${Date.now().toString(36)}`;
  const lines: string[] = [];

  before(async () => {
    [database, chain] = await Promise.all([createTestDatabase(), startHardhatChain(CHAIN)]);
    const { hostname, port } = new URL(chain.rpcUrl);
    websocketProxy = await startFaultProxy({ host: hostname, port: Number(port) });
    const manifestPath = chain.manifestWithWebsocket(websocketProxy.urlThrough(chain.wsUrl));
    decisions = await startDecisionApi(database, manifestPath);
    indexer = await startTestEvmIndexer(database, manifestPath, deploymentSchema, {
      pollingIntervalMs: 200,
      log: (line) => lines.push(line),
    });
    await indexer.ready;
  });

  after(async () => {
    clearInterval(miner);
    await indexer?.stop();
    websocketProxy?.restore();
    await websocketProxy?.close();
    await decisions?.close();
    await chain?.stop();
    if (database) await closeIndexerDatabase(database, deploymentSchema);
  });

  const head = async () => BigInt(await chain.rpc<string>("eth_blockNumber"));
  const indexed = () => indexedNumber(database.pool, CHAIN);
  const reserve = async (walletIndex: number, pair: Pair) => {
    const wallet = chain.wallets[walletIndex];
    if (!wallet) throw new Error("no wallet");
    return chain.reserve(wallet, pair.name, pair.ticker);
  };
  const chainFresh = async () => {
    const [entry] = await readCheckpoints(database.pool, CHAIN);
    return entry !== undefined && freshnessOf(entry.checkpoint, new Date()).state === "fresh";
  };

  it("never allows a copycat of a pair reserved meanwhile, and Ponder polls within seconds", async () => {
    // Ponder reads nothing newer than its start until a head is announced; this chain mines on demand.
    const headAtStart = await head();
    await waitFor(
      async () => {
        await chain.rpc("evm_mine");
        return indexed();
      },
      (block) => block > headAtStart,
      30_000,
    );
    await chain.increaseTime(CHAIN_AHEAD_SECONDS);
    const before = { name: "announced pair", ticker: "QANN" };
    await awaitMirrored(database.pool, CHAIN, await reserve(0, before));
    miner = setInterval(() => void chain.rpc("evm_mine").catch(() => undefined), 1000);

    websocketProxy.freeze();
    const frozenAt = Date.now();
    const headAtFreeze = await head();
    // A burst: the head runs past the mirror by more blocks than the lag bound allows.
    await chain.rpc("hardhat_mine", [toHex(LAG_BOUND_BLOCKS.evm + 2)]);
    const burstHead = await head();
    await waitFor(
      async () => (await readCheckpoints(database.pool, CHAIN))[0]?.checkpoint.headNumber ?? 0,
      (recorded) => recorded >= Number(burstHead),
    );
    const meanwhile = { name: "quiet pair", ticker: "QUIE" };
    const reserved = await reserve(1, meanwhile);
    const copycat = pollAsCopycat(decisions, CHAIN, meanwhile, 50);
    const latest = await chain.wallets[0]?.publicClient.getBlock({ blockNumber: reserved.blockNumber });
    expect(Number(latest?.timestamp) * 1000, "block times ahead of the clock").to.be.above(
      Date.now() + 10_000,
    );

    await waitFor(indexed, (block) => block > headAtFreeze, FALLBACK_WITHIN_MS + 10_000);
    const resumedMs = Date.now() - frozenAt;
    await awaitMirrored(database.pool, CHAIN, reserved);
    await waitFor(chainFresh, (fresh) => fresh);
    const answers = await copycat.stop();

    const allows = answers.filter((answer) => answer.decision === "allow");
    expect(allows, `${allows.length} allows of ${answers.length} answers`).to.deep.equal([]);
    expect(answers[0]?.sentAt, "the copycat asked before Ponder indexed again").to.be.below(
      frozenAt + resumedMs,
    );
    expect(
      lines.some((line) => line.includes(`${CHAIN}: its websocket announced no head past`)),
      "the relay cut Ponder over to polling",
    ).to.equal(true);
    expect(resumedMs, "Ponder indexing again by polling").to.be.below(FALLBACK_WITHIN_MS);
    await expectMirrorEqualsRegistry(database.pool, decisions, CHAIN, [before, meanwhile]);
  });
});
