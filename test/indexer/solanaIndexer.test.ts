// The Solana indexer against the project's local Solana RPC with the real program: reservations and
// renewals reach the read model; with the RPC's fault mode on, the mirror converges to the accounts read
// directly; a restart resumes from the cursor without applying anything twice.
import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "chai";
import { foldedHash, foldV1 } from "../../core/fold";
import { type SolanaIndexer, startSolanaIndexer } from "../../indexer/solana";
import { createTestDatabase, type TestDatabase } from "../support/testDatabase";
import { mirrorRows, waitFor } from "./support/readModel";
import { SOLANA_DAY, type SolanaTestChain, startSolanaTestChain } from "./support/solanaChain";

const CHAIN = "solana";
const FAST_RETRY = { attempts: 12, initialDelayMs: 20, maxDelayMs: 200, timeoutMs: 500 };

describe("Solana indexer on the local Solana RPC", function () {
  this.timeout(120_000);
  let database: TestDatabase;
  let chain: SolanaTestChain;
  let indexer: SolanaIndexer | undefined;

  const start = (commitment: "confirmed" | "finalized" = "finalized") =>
    startSolanaIndexer({
      pool: database.pool,
      manifestEntry: chain.entry,
      commitment,
      pollIntervalMs: 100,
      retry: FAST_RETRY,
      log: () => undefined,
    });

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

  /** Every reservation account of the program, as the mirror should show it. */
  const onChainState = async () =>
    (await chain.program.account.reservation.all())
      .map(({ account }) => ({
        name_hash: `0x${Buffer.from(account.nameHash).toString("hex")}`,
        launcher: account.launcher.toBase58(),
        expires_at: Number(account.expiresAt.toString()),
      }))
      .sort((a, b) => a.name_hash.localeCompare(b.name_hash));
  const mirrorState = async () =>
    (await mirrorRows(database.pool, CHAIN))
      .map((row) => ({
        name_hash: row.name_hash,
        launcher: row.launcher,
        expires_at: row.expires_at.getTime() / 1000,
      }))
      .sort((a, b) => a.name_hash.localeCompare(b.name_hash));

  it("mirrors a reservation and its renewal, with the checkpoint at the finalized slot", async () => {
    const launcher = chain.newLauncher();
    const signature = await chain.reserve(launcher, "Sol Cat", "scat");
    indexer = await start();
    await indexer.caughtUp;
    const [row] = await waitFor(
      () => mirrorRows(database.pool, CHAIN),
      (rows) => rows.some((r) => r.tx_hash === signature),
    );
    expect(row).to.include({
      normalized_name: "SOLCAT",
      normalized_ticker: "SCAT",
      name_hash: foldedHash(foldV1("Sol Cat")),
      ticker_hash: foldedHash("SCAT"),
      launcher: launcher.publicKey.toBase58(),
      duration_seconds: SOLANA_DAY,
    });
    expect(row?.partner_ref).to.equal(
      `0x${Buffer.from(Array.from({ length: 32 }, (_, i) => i)).toString("hex")}`,
    );
    const checkpoint = (
      await database.pool.query("SELECT * FROM chain_checkpoints WHERE chain = $1", [CHAIN])
    ).rows[0];
    expect(checkpoint.family).to.equal("solana");
    expect(Number(checkpoint.indexed_number)).to.be.at.least(Number(row?.block_number));

    chain.rpc.chain.warpTime(SOLANA_DAY - 3600);
    await chain.refreshPrice();
    const renewal = await chain.renew(launcher, "Sol Cat", "scat");
    const [renewed] = await waitFor(
      () => mirrorRows(database.pool, CHAIN),
      (rows) => rows[0]?.tx_hash === renewal,
    );
    expect(renewed?.duration_seconds).to.equal(2 * SOLANA_DAY);
    expect(renewed?.expires_at.getTime()).to.equal((row?.expires_at.getTime() ?? 0) + SOLANA_DAY * 1000);
    expect(await mirrorState()).to.deep.equal(await onChainState());
  });

  it("converges to the on-chain accounts through 429/5xx/timeouts, skipped slots, busy slots and commitment lag", async () => {
    chain.setFaults({
      failureRate: 0.25,
      randomFailures: [429, 500, 502, 503, "timeout"],
      timeoutMs: 700,
      skipSlotRate: 0.5,
      commitmentLag: { confirmed: 1, finalized: 4 },
      seed: 7,
      methods: ["getSlot", "getSignaturesForAddress", "getTransaction", "getBlockTime", "getGenesisHash"],
    });
    indexer = await start();
    const launchers = Array.from({ length: 6 }, () => chain.newLauncher());
    const sends: Promise<string>[] = [];
    chain.setFaults({ ...chain.rpc.chain.faults.current, freezeBlocks: true });
    for (const [index, launcher] of launchers.entries()) {
      for (let n = 0; n < 3; n++) sends.push(chain.reserve(launcher, `busy ${index} ${n}`, "BUSY"));
    }
    chain.setFaults({ ...chain.rpc.chain.faults.current, freezeBlocks: false });
    await Promise.all(sends);
    const expected = await onChainState();
    await waitFor(mirrorState, (state) => JSON.stringify(state) === JSON.stringify(expected), 60_000);
  });

  it("resumes from its cursor after a stop in the middle of a stream, applying each transaction once", async () => {
    indexer = await start("confirmed");
    const launchers = Array.from({ length: 4 }, () => chain.newLauncher());
    const stream = (async () => {
      for (const [index, launcher] of launchers.entries()) {
        for (let n = 0; n < 3; n++) await chain.reserve(launcher, `resume ${index} ${n}`, "RSME");
      }
    })();
    await waitFor(
      () => mirrorRows(database.pool, CHAIN),
      (rows) => rows.some((row) => row.normalized_ticker === "RSME"),
    );
    await indexer.stop();
    await stream;
    indexer = await start("confirmed");
    const expected = await onChainState();
    await waitFor(mirrorState, (state) => JSON.stringify(state) === JSON.stringify(expected), 30_000);
    const applied = await database.pool.query(
      "SELECT count(*)::int AS n, count(DISTINCT signature)::int AS d FROM solana_applied_transactions WHERE chain = $1",
      [CHAIN],
    );
    expect(applied.rows[0].n).to.equal(applied.rows[0].d);
  });

  it("loses and duplicates nothing across a kill -9 of the indexer process (npm run indexer:solana) mid-stream", async () => {
    const manifestPath = join(mkdtempSync(join(tmpdir(), "solana-manifest-")), "manifest.json");
    writeFileSync(manifestPath, JSON.stringify({ evm: [], solana: [chain.entry] }));
    const url = new URL(database.url);
    url.searchParams.set("options", `-c search_path=${database.schema}`);
    const spawnIndexer = () =>
      spawn(
        process.execPath,
        ["--import", "tsx", join(__dirname, "..", "..", "indexer", "solana", "main.ts")],
        {
          env: {
            ...process.env,
            DATABASE_URL: url.toString(),
            DEPLOYMENT_MANIFEST: manifestPath,
            SOLANA_COMMITMENT: "confirmed",
            SOLANA_POLL_INTERVAL_MS: "100",
          },
          stdio: "ignore",
        },
      );
    const launchers = Array.from({ length: 5 }, () => chain.newLauncher());
    let child = spawnIndexer();
    try {
      const stream = (async () => {
        for (const [index, launcher] of launchers.entries()) {
          for (let n = 0; n < 3; n++) await chain.reserve(launcher, `killed ${index} ${n}`, "KILL");
        }
      })();
      await waitFor(
        () => mirrorRows(database.pool, CHAIN),
        (rows) => rows.some((row) => row.normalized_ticker === "KILL"),
        60_000,
      );
      child.kill("SIGKILL");
      await stream;
      child = spawnIndexer();
      const expected = await onChainState();
      await waitFor(mirrorState, (state) => JSON.stringify(state) === JSON.stringify(expected), 60_000);
      const kills = (await mirrorRows(database.pool, CHAIN)).filter(
        (row) => row.normalized_ticker === "KILL",
      );
      expect(kills).to.have.length(launchers.length * 3);
      const applied = await database.pool.query(
        "SELECT count(*)::int AS n, count(DISTINCT signature)::int AS d FROM solana_applied_transactions WHERE chain = $1",
        [CHAIN],
      );
      expect(applied.rows[0].n).to.equal(applied.rows[0].d);
    } finally {
      child.kill("SIGKILL");
    }
  });
});
