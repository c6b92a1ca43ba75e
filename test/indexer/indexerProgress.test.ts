// The indexers' progress channel (indexer/progress.ts) that benches split the copycat window with: nothing is built
// while nobody listens; the EVM heads relay reports each head it passes on; a Solana pass reports the head slot it
// mirrors up to, and records that head beside its listing, also when the listing fails.
import { subscribe, unsubscribe } from "node:diagnostics_channel";
import type { AddressInfo } from "node:net";
import { expect } from "chai";
import { WebSocket, WebSocketServer } from "ws";
import { startHeadsRelay } from "../../indexer/evm/headsRelay";
import { INDEXER_PROGRESS_CHANNEL, type IndexerProgress, publishProgress } from "../../indexer/progress";
import { type SolanaIndexer, startSolanaIndexer } from "../../indexer/solana";
import { createTestDatabase, type TestDatabase } from "../support/testDatabase";
import { mirrorRows, waitFor } from "./support/readModel";
import { type SolanaTestChain, startSolanaTestChain } from "./support/solanaChain";

const CHAIN = "solana";
const FAST_RETRY = { attempts: 2, initialDelayMs: 20, maxDelayMs: 50, timeoutMs: 500 };

/** Progress events published from now until `stop` is called. */
function listen(): { events: IndexerProgress[]; stop(): void } {
  const events: IndexerProgress[] = [];
  const listener = (message: unknown) => events.push(message as IndexerProgress);
  subscribe(INDEXER_PROGRESS_CHANNEL, listener);
  return { events, stop: () => unsubscribe(INDEXER_PROGRESS_CHANNEL, listener) };
}

describe("indexer progress channel", function () {
  this.timeout(60_000);

  it("builds no event while nobody listens", () => {
    let built = 0;
    const event = (): IndexerProgress => {
      built += 1;
      return { chain: "x", step: "pass-started", number: 1n, at: 0 };
    };
    publishProgress(event);
    expect(built).to.equal(0);
    const listening = listen();
    publishProgress(event);
    listening.stop();
    expect(built).to.equal(1);
    expect(listening.events).to.have.length(1);
  });

  it("reports each head the EVM relay passes on to Ponder", async () => {
    const chain = new WebSocketServer({ port: 0, host: "127.0.0.1" });
    await new Promise((resolve) => chain.once("listening", resolve));
    const target = `ws://127.0.0.1:${(chain.address() as AddressInfo).port}`;
    const relay = await startHeadsRelay({ chain: "hardhat", target, log: () => undefined });
    const listening = listen();
    try {
      chain.on("connection", (socket) =>
        socket.send(
          JSON.stringify({
            jsonrpc: "2.0",
            method: "eth_subscription",
            params: { subscription: "0x1", result: { number: "0x2a" } },
          }),
        ),
      );
      const ponder = new WebSocket(relay.url);
      const received = await new Promise<string>((resolve) =>
        ponder.once("message", (data) => resolve(String(data))),
      );
      ponder.close();
      expect(JSON.parse(received).params.result.number).to.equal("0x2a");
      expect(listening.events).to.have.length(1);
      expect(listening.events[0]).to.include({ chain: "hardhat", step: "head-relayed", number: 42n });
    } finally {
      listening.stop();
      await relay.close();
      chain.close();
    }
  });

  describe("a Solana pass", () => {
    let database: TestDatabase;
    let chain: SolanaTestChain;
    let indexer: SolanaIndexer | undefined;

    before(async () => {
      [database, chain] = await Promise.all([createTestDatabase(), startSolanaTestChain(CHAIN)]);
    });

    afterEach(async () => {
      chain.setFaults({});
      await indexer?.stop();
      indexer = undefined;
    });

    after(async () => {
      await chain?.stop();
      await database?.close();
    });

    const start = () =>
      startSolanaIndexer({
        pool: database.pool,
        manifestEntry: chain.entry,
        commitment: "confirmed",
        pollIntervalMs: 50,
        retry: FAST_RETRY,
        backoff: { initialDelayMs: 50, maxDelayMs: 100 },
        log: () => undefined,
      });

    const checkpoint = async () =>
      (
        await database.pool.query<{ head_number: string | null; indexed_number: string | null }>(
          "SELECT head_number, indexed_number FROM chain_checkpoints WHERE chain = $1",
          [CHAIN],
        )
      ).rows[0];

    it("reports the head slot it mirrors up to, before the reservation's row is written", async () => {
      indexer = await start();
      await indexer.caughtUp;
      const listening = listen();
      try {
        const signature = await chain.reserve(chain.newLauncher(), "Progress Cat", "PCAT");
        const [row] = await waitFor(
          () => mirrorRows(database.pool, CHAIN),
          (rows) => rows.some((each) => each.tx_hash === signature),
        );
        const passes = listening.events.filter((event) => event.chain === CHAIN);
        expect(passes.length).to.be.greaterThan(0);
        expect(passes.every((event) => event.step === "pass-started")).to.equal(true);
        expect(passes.some((event) => event.number >= BigInt(row?.block_number ?? 0))).to.equal(true);
      } finally {
        listening.stop();
      }
    });

    it("records the head while its listing fails, and never the slot as indexed", async () => {
      indexer = await start();
      await indexer.caughtUp;
      const indexedBefore = (await checkpoint())?.indexed_number;
      chain.setFaults({ failureRate: 1, randomFailures: [500], methods: ["getSignaturesForAddress"] });
      const headBefore = BigInt((await checkpoint())?.head_number ?? 0);
      const heads = await waitFor(checkpoint, (row) => BigInt(row?.head_number ?? 0) > headBefore + 3n);
      expect(heads?.indexed_number).to.equal(indexedBefore);
    });
  });
});
