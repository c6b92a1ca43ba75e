// One Solana RPC URL in front of two nodes at different slots (the local RPC's lagging-replica fault: a
// round-robin load balancer over this node and one some blocks behind): the real indexer's checkpoint never
// claims a slot whose transactions are not in the mirror, while reservations land and passes run, and the head
// it records never goes back to the slot the node behind answers.
import { expect } from "chai";
import { foldedHash, foldV1 } from "../../core/fold";
import { type SolanaIndexer, startSolanaIndexer } from "../../indexer/solana";
import { readCheckpoints } from "../../services/mirror/chainCatalogue";
import { createTestDatabase, type TestDatabase } from "../support/testDatabase";
import { indexedNumber, mirrorRows, waitFor } from "./support/readModel";
import { type SolanaTestChain, startSolanaTestChain } from "./support/solanaChain";

const CHAIN = "solana";
const FAST_RETRY = { attempts: 20, initialDelayMs: 5, maxDelayMs: 50, timeoutMs: 2_000 };
/** The replica's lag: at 50 ms slots, a transaction stays invisible to it for ~300 ms. */
const REPLICA_BEHIND_BLOCKS = 6;
const RESERVATIONS = 24;

interface Landed {
  name: string;
  slot: number;
}

describe("Solana indexer behind a load balancer over nodes at different slots", function () {
  this.timeout(120_000);
  let database: TestDatabase;
  let chain: SolanaTestChain;
  let indexer: SolanaIndexer;

  before(async () => {
    [database, chain] = await Promise.all([createTestDatabase(), startSolanaTestChain(CHAIN)]);
  });

  after(async () => {
    await indexer?.stop();
    await chain?.stop();
    await database?.close();
  });

  /** Reservations that landed at or before `slot` and are not in the mirror. */
  async function missingUpTo(slot: bigint, landed: readonly Landed[]): Promise<string[]> {
    const mirrored = new Set((await mirrorRows(database.pool, CHAIN)).map((row) => row.name_hash));
    return landed
      .filter((each) => BigInt(each.slot) <= slot && !mirrored.has(foldedHash(foldV1(each.name))))
      .map((each) => `${each.name} @${each.slot}`);
  }

  it("never records a checkpoint past a reservation it has not mirrored", async () => {
    chain.setFaults({
      laggingReplicaBlocks: REPLICA_BEHIND_BLOCKS,
      // `confirmed` trails the newest block by one, as on a cluster, where a confirmed block is complete. At the
      // local RPC's default (none) the confirmed head is the open block: a transaction can land in it after a
      // pass listed the head's signatures, and the checkpoint would claim it (seen once in a loaded full run).
      commitmentLag: { confirmed: 1 },
      // The indexer's reads; the test's own sends and confirmations go to this node.
      methods: [
        "getSlot",
        "getSignaturesForAddress",
        "getTransaction",
        "getMultipleAccounts",
        "getBlockTime",
      ],
    });
    indexer = await startSolanaIndexer({
      pool: database.pool,
      manifestEntry: chain.entry,
      commitment: "confirmed",
      pollIntervalMs: 20,
      retry: FAST_RETRY,
      log: () => undefined,
    });
    const landed: Landed[] = [];
    let sending = true;
    const sender = (async () => {
      for (let n = 0; n < RESERVATIONS; n++) {
        const name = `Balanced ${n}`;
        const signature = await chain.reserve(chain.newLauncher(), name, "LBAL");
        landed.push({ name, slot: chain.rpc.chain.ledger.transaction(signature)?.slot as number });
        // Spread over many passes, so transactions land between a pass's head and its reads.
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      sending = false;
    })();

    const violations: string[] = [];
    let checks = 0;
    while (sending) {
      await indexer.sync();
      // The checkpoint first: rows only grow, so rows read after it show at least what it claims.
      const checkpoint = await indexedNumber(database.pool, CHAIN);
      const missing = await missingUpTo(checkpoint, landed);
      if (missing.length > 0) violations.push(`checkpoint ${checkpoint} without ${missing.join(", ")}`);
      checks += 1;
    }
    await sender;
    const last = Math.max(...landed.map((each) => each.slot));
    await waitFor(
      () => indexedNumber(database.pool, CHAIN),
      (indexed) => indexed >= BigInt(last),
    );
    expect(violations, `${violations.length} of ${checks} checks`).to.deep.equal([]);
    expect(await missingUpTo(BigInt(last), landed)).to.deep.equal([]);
  });
});

// Its own chain and database: the checkpoint it leaves would sit at the slot the other test's first reservation
// lands in (the local RPC's newest block is still open at "confirmed").
describe("Solana indexer behind a load balancer: the recorded head", function () {
  this.timeout(60_000);
  let database: TestDatabase;
  let chain: SolanaTestChain;

  before(async () => {
    [database, chain] = await Promise.all([createTestDatabase(), startSolanaTestChain(CHAIN)]);
  });

  after(async () => {
    await chain?.stop();
    await database?.close();
  });

  it("never records a head slot below one it recorded, though the node behind answers every other getSlot", async () => {
    chain.setFaults({ laggingReplicaBlocks: REPLICA_BEHIND_BLOCKS, methods: ["getSlot"] });
    const balanced = await startSolanaIndexer({
      pool: database.pool,
      manifestEntry: chain.entry,
      commitment: "confirmed",
      pollIntervalMs: 20,
      retry: FAST_RETRY,
      log: () => undefined,
    });
    try {
      const heads: number[] = [];
      for (let pass = 0; pass < 40; pass++) {
        await balanced.sync();
        const [entry] = await readCheckpoints(database.pool, CHAIN);
        heads.push(entry?.checkpoint.headNumber ?? -1);
      }
      const setBacks = heads.flatMap((head, index) => {
        const previous = heads[index - 1];
        return previous !== undefined && head < previous ? [`${previous} -> ${head}`] : [];
      });
      expect(setBacks, `heads after ${heads.length} passes`).to.deep.equal([]);
    } finally {
      await balanced.stop();
    }
  });
});
