// The identity check's reads are batched like validations': concurrent checks share one snapshot statement.
// The batched answers must be exactly the ones each check gets alone, for every status and decision the engine
// gives, a write must be visible to the next check, and a frozen database must answer `unavailable` in time.
import { expect } from "chai";
import type { Pool } from "pg";
import { createServices } from "../../../services";
import { blockIdentity, clearIdentity } from "../../../services/identity/guardian";
import type { CheckRequest } from "../../../services/identity/identityCheck";
import { quoteIdentifier } from "../../../storage/database";
import { createPool } from "../../../storage/pool";
import {
  CHAINS,
  EVM_OTHER,
  EVM_OWNER,
  mirrorReservation,
  setCheckpoints,
} from "../../api/routes/identity/support";
import { bearer, issueKey, startTestApi } from "../../api/support/harness";
import { startFaultProxy } from "../../support/faultProxy";
import { createTestDatabase, type TestDatabase } from "../../support/testDatabase";

const OPERATOR = { actor: "test", reason: "batched check" };

/** A pool that counts the snapshot statements sent through it. */
function countingPool(pool: Pool): { pool: Pool; snapshots: () => number } {
  let snapshots = 0;
  const counted = new Proxy(pool, {
    get(target, property, receiver) {
      if (property !== "query") return Reflect.get(target, property, receiver);
      return (config: unknown, ...rest: unknown[]) => {
        const text = typeof config === "string" ? config : (config as { text?: string }).text;
        if (text?.includes("json_to_recordset")) snapshots += 1;
        return (target.query as (...args: unknown[]) => unknown).call(target, config, ...rest);
      };
    },
  });
  return { pool: counted, snapshots: () => snapshots };
}

async function lock(pool: Pool, identityKey: string, launcher: string | null, expiresIn = "1 day") {
  await pool.query(
    `INSERT INTO identity_locks (environment, identity_key, chain, kind, was_reserved, authorized_launcher, applied_at, expires_at)
     VALUES ('production', $1, 'hardhat', 'bonded', false, $2, now() - interval '2 days', now() + $3::interval)`,
    [identityKey, launcher, expiresIn],
  );
}

describe("identity check: batched snapshot reads", () => {
  let db: TestDatabase;

  before(async () => {
    db = await createTestDatabase();
    await setCheckpoints(db.pool);
    // Solana's mirror is stale: its answers are recheck_required (delayed).
    await db.pool.query(
      "UPDATE chain_checkpoints SET indexed_at = now() - interval '1 hour', indexed_block_time = now() - interval '1 hour' WHERE chain = 'solana'",
    );
    await mirrorReservation(db.pool, {
      chain: "hardhat",
      name: "Held Coin",
      ticker: "HELD",
      launcher: EVM_OWNER,
      expiresInSeconds: 3600,
    });
    await mirrorReservation(db.pool, {
      chain: "hardhat",
      name: "Lapsed Coin",
      ticker: "LAPS",
      launcher: EVM_OWNER,
      expiresInSeconds: -60,
    });
    await lock(db.pool, "LOCKEDCOIN::LOCK", EVM_OWNER);
    await lock(db.pool, "OLDLOCK::OLD", EVM_OWNER, "-1 hour");
    await blockIdentity(db.pool, { environment: "production", identityKey: "BLOCKED::BLK" }, OPERATOR);
    await blockIdentity(
      db.pool,
      { environment: "production", identityKey: "GRADUATED::GRAD", graduated: true },
      OPERATOR,
    );
    // A second apart: a block and a clear in the same millisecond would tie.
    await blockIdentity(
      db.pool,
      { environment: "production", identityKey: "CLEARED::CLR" },
      OPERATOR,
      new Date(Date.now() - 1000),
    );
    await clearIdentity(db.pool, { environment: "production", identityKey: "CLEARED::CLR" }, OPERATOR);
    await db.pool.query(
      `INSERT INTO identity_launches (environment, identity_key, chain, launcher, token_or_mint, launchpad, reported_at)
       VALUES ('production', 'LAUNCHED::LNCH', 'hardhat', $1, '0xt0', 'pad', now() - interval '1 day')`,
      [EVM_OWNER],
    );
  });
  after(async () => db.close());

  const REQUESTS: CheckRequest[] = [
    ["Free Coin", "FREE"],
    ["Held Coin", "HELD"],
    ["Lapsed Coin", "LAPS"],
    ["Locked Coin", "LOCK"],
    ["Old Lock", "OLD"],
    ["Blocked", "BLK"],
    ["Graduated", "GRAD"],
    ["Cleared", "CLR"],
    ["Launched", "LNCH"],
  ].flatMap(([name, ticker]) =>
    [undefined, EVM_OWNER, EVM_OTHER].flatMap((launcher) =>
      ["hardhat", "solana", undefined].map((chain) => ({
        name: name as string,
        ticker: ticker as string,
        chain,
        launcher: chain === "solana" ? undefined : launcher,
      })),
    ),
  );

  it("concurrent checks share statements and answer exactly what each check answers alone", async () => {
    const counted = countingPool(db.pool);
    const { identity } = createServices({ pool: counted.pool, now: Date.now, decisions: { chains: CHAINS } });
    await identity.check("production", { name: "Warm", ticker: "UP" }, null);
    const before = counted.snapshots();
    const together = await Promise.all(
      REQUESTS.map((request) => identity.check("production", request, null)),
    );
    const statements = counted.snapshots() - before;
    expect(statements, "snapshot statements for the concurrent checks").to.be.at.most(3);
    const alone = [];
    for (const request of REQUESTS) alone.push(await identity.check("production", request, null));
    expect(counted.snapshots() - before - statements).to.equal(REQUESTS.length);
    expect(together).to.deep.equal(alone);
    // The table covers every status and decision the engine gives on these records.
    const seen = (field: "status" | "decision") =>
      [...new Set(together.map((result) => result[field]))].sort();
    expect(seen("status")).to.deep.equal(
      [
        "authorized",
        "available",
        "blocked",
        "cleared",
        "delayed",
        "expired",
        "launched",
        "protected",
        "reserved",
      ].sort(),
    );
    expect(seen("decision")).to.deep.equal(
      ["allow", "allow_authorized_only", "block", "recheck_required"].sort(),
    );
  });

  it("a write is visible to the next check: a confirmed reservation, a lock, a guardian block", async () => {
    const { identity } = createServices({ pool: db.pool, now: Date.now, decisions: { chains: CHAINS } });
    const check = (name: string, ticker: string) =>
      identity.check("production", { name, ticker, chain: "hardhat" }, null);
    expect(await check("Next Held", "NXH")).to.include({ status: "available" });
    await mirrorReservation(db.pool, {
      chain: "hardhat",
      name: "Next Held",
      ticker: "NXH",
      launcher: EVM_OWNER,
      expiresInSeconds: 3600,
    });
    expect(await check("Next Held", "NXH")).to.include({ status: "reserved" });
    expect(await check("Next Lock", "NXL")).to.include({ status: "available" });
    await lock(db.pool, "NEXTLOCK::NXL", EVM_OWNER);
    expect(await check("Next Lock", "NXL")).to.include({ status: "protected" });
    await blockIdentity(db.pool, { environment: "production", identityKey: "NEXTLOCK::NXL" }, OPERATOR);
    expect(await check("Next Lock", "NXL")).to.include({ status: "blocked", reason: "guardian_block" });
  });

  it("a keyed check over HTTP costs one statement: its key is found and counted with the snapshot's read", async () => {
    let statements: string[] = [];
    const counted = new Proxy(db.pool, {
      get(target, property, receiver) {
        if (property !== "query") return Reflect.get(target, property, receiver);
        return (config: unknown, ...rest: unknown[]) => {
          const text = typeof config === "string" ? config : (config as { text?: string }).text;
          statements.push(text ?? "");
          return (target.query as (...args: unknown[]) => unknown).call(target, config, ...rest);
        };
      },
    });
    const api = await startTestApi({ db: { ...db, pool: counted }, deps: { decisions: { chains: CHAINS } } });
    try {
      const key = await issueKey(api, "production");
      const check = () =>
        api.call({
          path: "/api/v1/identity/check?name=Held%20Coin&ticker=HELD&chain=hardhat",
          host: "api.test",
          headers: bearer(key.secret),
        });
      expect((await check()).status).to.equal(200); // start-up and the once-a-minute housekeeping
      statements = [];
      const response = await check();
      expect(response.status, response.text).to.equal(200);
      expect(response.body).to.include({ status: "reserved" });
      expect(response.headers["x-request-id"]).to.match(/^req_/);
      expect(response.headers["ratelimit-remaining"]).to.match(/^\d+$/);
      const reads = statements.filter((text) => /api_keys|chain_reservations/.test(text));
      expect(reads, "statements that read the key or the identity").to.have.length(1);
      expect(reads[0]).to.include("api_keys").and.include("chain_reservations");
    } finally {
      await api.close();
    }
  });

  it("a frozen database answers decision unavailable within the data path's bound, never hangs", async () => {
    const target = new URL(db.url);
    const proxy = await startFaultProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const pool = createPool({
      connectionString: proxy.urlThrough(db.url),
      options: `-c search_path=${quoteIdentifier(db.schema)}`,
      max: 4,
    });
    pool.on("error", () => undefined);
    try {
      const { identity } = createServices({
        pool,
        now: Date.now,
        decisions: { chains: CHAINS, dataPathTimeoutMs: 300 },
      });
      expect(
        await identity.check("production", { name: "Held Coin", ticker: "HELD", chain: "hardhat" }, null),
      ).to.include({
        status: "reserved",
      });
      proxy.freeze();
      // Without the bound this call never returns and the test times out.
      const frozen = await identity.check(
        "production",
        { name: "Held Coin", ticker: "HELD", chain: "hardhat" },
        null,
      );
      expect(frozen).to.include({ decision: "unavailable", status: "unknown", adapter: "unavailable" });
    } finally {
      proxy.restore();
      await pool.end().catch(() => undefined);
      await proxy.close();
    }
  });
});
