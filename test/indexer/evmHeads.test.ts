// The EVM indexer woken by new heads over the websocket of the manifest's `wsUrl` (Hardhat serves one on its
// HTTP port), and its fallback to polling when that websocket drops or is absent. The websocket runs through a
// fault proxy (test/support/faultProxy.ts) the test cuts; JSON-RPC over HTTP goes straight to the node.
import { expect } from "chai";
import type { EvmIndexer } from "../../indexer/evm/run";
import { type FaultProxy, startFaultProxy } from "../support/faultProxy";
import { createTestDatabase, freePort, type TestDatabase } from "../support/testDatabase";
import { type HardhatChain, startHardhatChain } from "./support/hardhatChain";
import { closeIndexerDatabase, startTestEvmIndexer } from "./support/ponderIndexer";
import { indexedNumber, mirrorRows, waitFor } from "./support/readModel";

const CHAIN = "hardhat-heads";
/**
 * Ponder's poll when the websocket is in use: longer than the whole first test. Ponder arms its first poll one
 * interval after it subscribes, which is after startEvmIndexer was called, so nothing polled can reach the
 * mirror before that call plus this interval.
 */
const SLOW_POLL_MS = 60_000;
/** Until when the first test may wait: Ponder's start-up (15 s on a loaded 2-core machine) plus a few blocks. */
const BEFORE_FIRST_POLL_MS = SLOW_POLL_MS - 5_000;

describe("EVM indexer (Ponder) with the chain's websocket", function () {
  this.timeout(180_000);
  let database: TestDatabase;
  let chain: HardhatChain;
  let websocketProxy: FaultProxy;
  const schemas: string[] = [];

  before(async () => {
    [database, chain] = await Promise.all([createTestDatabase(), startHardhatChain(CHAIN)]);
    const { hostname, port } = new URL(chain.rpcUrl);
    websocketProxy = await startFaultProxy({ host: hostname, port: Number(port) });
  });

  after(async () => {
    await websocketProxy?.close();
    await chain?.stop();
    if (database) await closeIndexerDatabase(database, ...schemas);
  });

  const startIndexer = async (wsUrl: string, pollingIntervalMs: number, log: (line: string) => void) => {
    const manifestPath = chain.manifestWithWebsocket(wsUrl);
    const deploymentSchema = `evm_heads_${schemas.length}_${Date.now().toString(36)}`;
    schemas.push(deploymentSchema);
    const indexer = await startTestEvmIndexer(database, manifestPath, deploymentSchema, {
      pollingIntervalMs,
      restartOnExit: false,
      log,
    });
    return indexer;
  };

  const indexedBlock = async () => Number(await indexedNumber(database.pool, CHAIN));

  /**
   * Mines empty blocks until Ponder has read one. Ponder reads nothing newer than its start until a head
   * arrives (a poll or a push), it subscribes only after answering /health, and this chain mines on demand.
   */
  const awaitFirstHead = async (timeoutMs: number) => {
    const headAtStart = Number(await chain.rpc<string>("eth_blockNumber"));
    await waitFor(
      async () => {
        await chain.rpc("evm_mine");
        return indexedBlock();
      },
      (indexed) => indexed > headAtStart,
      timeoutMs,
    );
  };

  const reserveAndAwaitMirror = async (walletIndex: number, name: string, timeoutMs: number) => {
    const wallet = chain.wallets[walletIndex];
    if (!wallet) throw new Error("no wallet");
    const { hash } = await chain.reserve(wallet, name, "HEAD");
    await waitFor(
      () => mirrorRows(database.pool, CHAIN),
      (rows) => rows.some((row) => row.tx_hash === hash),
      timeoutMs,
    );
  };

  describe("polling every 60 s, with the websocket", () => {
    let indexer: EvmIndexer | undefined;
    after(() => indexer?.stop());

    it("mirrors a reservation from its announced head, before Ponder's first poll could run", async () => {
      const started = Date.now();
      indexer = await startIndexer(websocketProxy.urlThrough(chain.wsUrl), SLOW_POLL_MS, () => undefined);
      await indexer.ready;
      const deadline = started + BEFORE_FIRST_POLL_MS;
      await awaitFirstHead(deadline - Date.now());
      await reserveAndAwaitMirror(0, "heads pushed", deadline - Date.now());
      expect(Date.now(), "mirrored before Ponder's first poll could run").to.be.below(started + SLOW_POLL_MS);
    });
  });

  describe("polling every 100 ms, with the websocket", () => {
    const lines: string[] = [];
    let indexer: EvmIndexer | undefined;
    after(() => indexer?.stop());

    it("keeps mirroring reservations, by polling, once the websocket drops and reconnecting is refused", async () => {
      indexer = await startIndexer(websocketProxy.urlThrough(chain.wsUrl), 100, (line) => lines.push(line));
      await indexer.ready;
      await awaitFirstHead(30_000);
      await reserveAndAwaitMirror(1, "before the drop", 30_000);
      websocketProxy.cut();
      await waitFor(
        async () => lines.some((line) => line.includes("Failed JSON-RPC WebSocket subscription")),
        (seen) => seen,
      );
      await reserveAndAwaitMirror(2, "after the drop", 30_000);
      websocketProxy.restore();
    });
  });

  describe("polling every 100 ms, with a websocket address nothing listens at", () => {
    let indexer: EvmIndexer | undefined;
    after(() => indexer?.stop());

    it("polls from the start", async () => {
      indexer = await startIndexer(`ws://127.0.0.1:${await freePort()}`, 100, () => undefined);
      await indexer.ready;
      await reserveAndAwaitMirror(3, "no websocket", 30_000);
    });
  });
});
