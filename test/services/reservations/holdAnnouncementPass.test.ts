// The announcement of on-chain holds on the test database: mirror rows and checkpoints written as the indexers write
// them. A hold made without any prepare is announced once to every partner (partnerId null), however many passes
// race; a renewal once as identity.extended; a prepared reservation's confirmation and the pass never both announce
// one hold; nothing is announced from a mirror that is not fresh (a revert rewinds it) or for a hold that ended; the
// first deploy's migration takes the holds already mirrored as its watermark.
import { expect } from "chai";
import type { Pool } from "pg";
import type { RegistryClient } from "../../../chains/registryClient";
import { normalizeIdentity } from "../../../core/fold";
import {
  ANNOUNCEMENT_RETENTION_MS,
  announceHoldsPass,
} from "../../../services/reservations/holdAnnouncementPass";
import { reconcilePass } from "../../../services/reservations/reconcile";
import type { Reservation } from "../../../services/reservations/record";
import { readMigrations } from "../../../storage/migrate";
import {
  catalogueOf,
  checkpoint,
  clearedTestDatabase,
  DAY,
  depsAt,
  EVM_LAUNCHER,
  eventsOf,
  mirrorHold,
  PARTNER,
  prepare,
  seconds,
} from "./support";

const HASH = `0x${"ab".repeat(32)}`;

interface DirectHold {
  name: string;
  ticker: string;
  reservedAt: Date;
  expiresAt: Date;
  durationSeconds?: number;
}

/** A hold a wallet made on the registry directly (no prepare, no partnerRef), as the indexers write it. */
async function mirrorDirectHold(pool: Pool, hold: DirectHold): Promise<void> {
  const identity = normalizeIdentity(hold.name, hold.ticker);
  await pool.query(
    `INSERT INTO chain_reservations (chain, name_hash, ticker_hash, normalized_name, normalized_ticker, launcher,
       reserved_at, expires_at, duration_seconds, fee_paid, partner_ref, tx_hash, block_number)
     VALUES ('hardhat', $1, $2, $3, $4, $5, $6, $7, $8, 1000, NULL, $9, 7)
     ON CONFLICT (chain, name_hash, ticker_hash) DO UPDATE SET expires_at = EXCLUDED.expires_at,
       duration_seconds = EXCLUDED.duration_seconds, tx_hash = EXCLUDED.tx_hash, updated_at = now()`,
    [
      identity.nameHash,
      identity.tickerHash,
      identity.normalizedName,
      identity.normalizedTicker,
      EVM_LAUNCHER,
      hold.reservedAt,
      hold.expiresAt,
      hold.durationSeconds ?? DAY,
      HASH,
    ],
  );
}

/** A chain whose RPC says `renewal`'s transaction renewed its pair until `expiresAt` (nothing else is asked). */
function renewalChain(renewal: Reservation, expiresAt: Date): RegistryClient {
  const unused = async (): Promise<never> => {
    throw new Error("not asked in this test");
  };
  return {
    chain: "hardhat",
    family: "evm",
    simulated: false,
    guardTarget: null,
    quote: unused,
    reservationOf: unused,
    activeReservationCount: unused,
    prepareTransaction: unused,
    commitmentOf: unused,
    stepOf: unused,
    transactionOutcome: async () => ({ state: "succeeded", blockNumber: 8 }),
    settlementOf: async () => ({
      kind: "renew",
      nameHash: renewal.nameHash,
      tickerHash: renewal.tickerHash,
      launcher: EVM_LAUNCHER,
      expiresAt,
      feePaid: 10n,
    }),
    isTransactionHash: () => true,
  };
}

interface Announced {
  type: string;
  partner_id: string | null;
  environment: string;
  payload: { identityKey: string; protectedUntil: string; hold: Record<string, unknown> };
}

async function announcements(pool: Pool, identityKey: string): Promise<Announced[]> {
  const { rows } = await pool.query<Announced>(
    `SELECT type, partner_id, environment, payload FROM domain_events
      WHERE type IN ('identity.protected', 'identity.extended') AND payload->>'identityKey' = $1 ORDER BY id`,
    [identityKey],
  );
  return rows;
}

describe("reservations: announcing on-chain holds to every partner", function () {
  this.timeout(60_000);
  const db = clearedTestDatabase();
  let t0: Date;

  beforeEach(() => {
    t0 = new Date(Math.ceil(Date.now() / 1000) * 1000 + 60_000);
  });

  const passAt = (now: Date) => announceHoldsPass(depsAt(db.pool, () => now));

  it("announces a direct hold once, to every partner, however many passes race", async () => {
    await checkpoint(db.pool, "hardhat", "evm", seconds(t0, 100));
    await mirrorDirectHold(db.pool, {
      name: "Direct Otter",
      ticker: "DOTR",
      reservedAt: seconds(t0, 60),
      expiresAt: seconds(t0, 60 + DAY),
    });

    const counts = await Promise.all([1, 2, 3, 4].map(() => passAt(seconds(t0, 110))));
    expect(counts.reduce((sum, count) => sum + count, 0)).to.equal(1);
    expect(await passAt(seconds(t0, 120))).to.equal(0);

    const announced = await announcements(db.pool, "DIRECTOTTER::DOTR");
    expect(announced.map((event) => [event.type, event.partner_id, event.environment])).to.deep.equal([
      ["identity.protected", null, "production"],
    ]);
    expect(announced[0]?.payload).to.deep.include({
      source: "reservation",
      chain: "hardhat",
      protectedUntil: seconds(t0, 60 + DAY).toISOString(),
      hold: {
        launcher: EVM_LAUNCHER,
        reservedAt: seconds(t0, 60).toISOString(),
        expiresAt: seconds(t0, 60 + DAY).toISOString(),
        durationSeconds: DAY,
        transactionHash: HASH,
        blockNumber: 7,
      },
    });
  });

  it("announces an on-chain renewal of the same hold once, as identity.extended", async () => {
    await checkpoint(db.pool, "hardhat", "evm", seconds(t0, 100));
    const hold = { name: "Renew Otter", ticker: "ROTR", reservedAt: seconds(t0, 60) };
    await mirrorDirectHold(db.pool, { ...hold, expiresAt: seconds(t0, 60 + DAY) });
    expect(await passAt(seconds(t0, 110))).to.equal(1);
    await mirrorDirectHold(db.pool, {
      ...hold,
      expiresAt: seconds(t0, 60 + 2 * DAY),
      durationSeconds: 2 * DAY,
    });
    expect(await Promise.all([passAt(seconds(t0, 120)), passAt(seconds(t0, 120))])).to.have.members([1, 0]);
    expect((await announcements(db.pool, "RENEWOTTER::ROTR")).map((event) => event.type)).to.deep.equal([
      "identity.protected",
      "identity.extended",
    ]);
  });

  it("never announces a hold twice when a prepared reservation's confirmation saw it too", async () => {
    await checkpoint(db.pool, "hardhat", "evm", seconds(t0, 100));
    const reservation = await prepare(db.pool, { preparedAt: t0, name: "Prepared Otter", ticker: "POTR" });
    await mirrorHold(db.pool, reservation, {
      launcher: EVM_LAUNCHER,
      reservedAt: seconds(t0, 60),
      expiresAt: seconds(t0, 60 + DAY),
      durationSeconds: DAY,
      feePaid: 5_000n,
      partnerRef: reservation.partnerRef,
      txHash: HASH,
    });
    // The pass leaves a hold its open prepare waits for to the confirmation, which announces it.
    expect(await passAt(seconds(t0, 110))).to.equal(0);
    const deps = depsAt(db.pool, () => seconds(t0, 110));
    await Promise.all([reconcilePass(deps), announceHoldsPass(deps), reconcilePass(deps)]);
    expect(await passAt(seconds(t0, 120))).to.equal(0);
    const events = await eventsOf(db.pool, reservation.reservationId);
    expect(events.map((event) => [event.type, event.partnerId])).to.deep.equal([
      ["reservation.created", PARTNER],
      ["identity.protected", null],
      ["revenue.accrued", PARTNER],
    ]);
  });

  it("announces a hold the pass found first only once, even if a prepare confirms it later", async () => {
    await checkpoint(db.pool, "hardhat", "evm", seconds(t0, 100));
    // A renew prepare is matched by its hash only: the pass may announce its hold before the confirmation.
    const renewal = await prepare(db.pool, {
      preparedAt: t0,
      name: "Late Otter",
      ticker: "LOTR",
      kind: "renew",
    });
    await mirrorDirectHold(db.pool, {
      name: "Late Otter",
      ticker: "LOTR",
      reservedAt: seconds(t0, -DAY + 3600),
      expiresAt: seconds(t0, 3600 + DAY),
      durationSeconds: 2 * DAY,
    });
    expect(await passAt(seconds(t0, 110))).to.equal(1);
    await db.pool.query(
      "UPDATE reservations SET status = 'submitted', transaction_hash = $2, submitted_at = $3 WHERE reservation_id = $1",
      [renewal.reservationId, HASH, seconds(t0, 30)],
    );
    // The chain answers the renewal's transaction: the reconciler confirms it, and finds its hold announced.
    const counts = await reconcilePass(
      depsAt(db.pool, () => seconds(t0, 120), catalogueOf(renewalChain(renewal, seconds(t0, 3600 + DAY)))),
    );
    expect(counts.confirmed).to.equal(1);
    // Its own event only: the hold's state was announced already (by the pass, as the hold's first announcement).
    expect((await eventsOf(db.pool, renewal.reservationId)).map((event) => event.type)).to.deep.equal([
      "revenue.accrued",
    ]);
    expect(await announcements(db.pool, "LATEOTTER::LOTR")).to.have.length(1);
  });

  it("announces nothing from a mirror that is not fresh (behind, or rewound by a revert) nor a hold that ended", async () => {
    await mirrorDirectHold(db.pool, {
      name: "Stale Otter",
      ticker: "SOTR",
      reservedAt: seconds(t0, 60),
      expiresAt: seconds(t0, 60 + DAY),
    });
    // Never indexed: no checkpoint.
    expect(await passAt(seconds(t0, 110))).to.equal(0);
    // Behind the 60 s bound.
    await checkpoint(db.pool, "hardhat", "evm", seconds(t0, 0));
    expect(await passAt(seconds(t0, 110))).to.equal(0);
    // Rewound by a revert, not yet indexed again as far as it had been.
    await checkpoint(db.pool, "hardhat", "evm", seconds(t0, 100));
    await db.pool.query(
      "UPDATE chain_checkpoints SET rewound_from = indexed_number + 5 WHERE chain = 'hardhat'",
    );
    expect(await passAt(seconds(t0, 110))).to.equal(0);
    // Fresh again: announced.
    await db.pool.query("UPDATE chain_checkpoints SET rewound_from = NULL WHERE chain = 'hardhat'");
    expect(await passAt(seconds(t0, 110))).to.equal(1);
    // A hold that already ended is no news.
    await mirrorDirectHold(db.pool, {
      name: "Ended Otter",
      ticker: "EOTR",
      reservedAt: seconds(t0, -2 * DAY),
      expiresAt: seconds(t0, -DAY),
    });
    expect(await passAt(seconds(t0, 110))).to.equal(0);
  });

  it("the first deploy takes the holds already mirrored as its watermark: only later changes are announced", async () => {
    await checkpoint(db.pool, "hardhat", "evm", seconds(t0, 100));
    const hold = { name: "Old Otter", ticker: "OOTR", reservedAt: seconds(t0, 60) };
    await mirrorDirectHold(db.pool, { ...hold, expiresAt: seconds(t0, 60 + DAY) });
    const migration = readMigrations().find((entry) => entry.version === 29);
    await db.pool.query(`DROP TABLE hold_announcements; ${migration?.sql}`);

    expect(await passAt(seconds(t0, 110))).to.equal(0);
    await mirrorDirectHold(db.pool, {
      ...hold,
      expiresAt: seconds(t0, 60 + 2 * DAY),
      durationSeconds: 2 * DAY,
    });
    expect(await passAt(seconds(t0, 120))).to.equal(1);
    expect((await announcements(db.pool, "OLDOTTER::OOTR")).map((event) => event.type)).to.deep.equal([
      "identity.extended",
    ]);
  });
  it("prunes the announcements of holds ended a week ago, and keeps those of live and recently ended holds", async () => {
    await checkpoint(db.pool, "hardhat", "evm", seconds(t0, 100));
    const ended = {
      name: "Ended Otter",
      ticker: "EOTR",
      reservedAt: seconds(t0, 60),
      expiresAt: seconds(t0, 60 + DAY),
    };
    const live = {
      name: "Long Otter",
      ticker: "LGOT",
      reservedAt: seconds(t0, 60),
      expiresAt: seconds(t0, 60 + 30 * DAY),
    };
    await mirrorDirectHold(db.pool, ended);
    await mirrorDirectHold(db.pool, { ...live, durationSeconds: 30 * DAY });
    expect(await passAt(seconds(t0, 110))).to.equal(2);
    const kept = async () =>
      (
        await db.pool.query<{ expires_at: Date }>(
          "SELECT expires_at FROM hold_announcements ORDER BY expires_at",
        )
      ).rows.map((row) => row.expires_at.toISOString());
    const justBefore = new Date(ended.expiresAt.getTime() + ANNOUNCEMENT_RETENTION_MS - 1_000);
    await checkpoint(db.pool, "hardhat", "evm", justBefore);
    await passAt(justBefore);
    expect(await kept()).to.deep.equal([ended.expiresAt.toISOString(), live.expiresAt.toISOString()]);
    const past = new Date(ended.expiresAt.getTime() + ANNOUNCEMENT_RETENTION_MS + 1_000);
    await checkpoint(db.pool, "hardhat", "evm", past);
    expect(await passAt(past)).to.equal(0);
    expect(await kept()).to.deep.equal([live.expiresAt.toISOString()]);
    expect((await announcements(db.pool, "LONGOTTER::LGOT")).map((event) => event.type)).to.deep.equal([
      "identity.protected",
    ]);
  });
});
