// A lock rests on facts, not on the reporter's word. Over real HTTP with mirror rows as the indexer writes them
// (the same on the local chains with real wallets: test/e2e/locks.test.ts). The attack each test guards
// against: a keeper's `{"wasReserved":true}` for a pair never reserved nor launched locking it for 60 days for
// nobody, and the creator who then reserved it answered `block bonding_lock`.
import { expect } from "chai";
import { issueKeeperCredential, setLaunchReporting } from "../../../../services/identity/keeperCredentials";
import { bindLaunchpad } from "../../../../services/partners/launchpads";
import { bearer, expectEnvelope, issueKey, type TestApi } from "../../support/harness";
import { EVM_OTHER, EVM_OWNER, mirrorReservation, pinnedDecisionApi } from "./support";

const OPERATOR = { actor: "test-operator", reason: "test" };
const T = Date.parse("2026-12-01T12:00:00.000Z");
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const iso = (ms: number) => new Date(ms).toISOString();
const CREATOR = EVM_OWNER;
const COPYCAT = EVM_OTHER;
const CREATOR_TOKEN = `0x${"aa".repeat(20)}`;
const COPYCAT_TOKEN = `0x${"bb".repeat(20)}`;

describe("api: locks rest on facts", () => {
  let api: TestApi;
  let live: { secret: string; keyId: string; partnerId: string };
  let keeper: string;

  before(async () => {
    api = await pinnedDecisionApi(T);
    live = await issueKey(api, "production", { scopes: ["launch:report", "event:report"] });
    keeper = (await issueKeeperCredential(api.db.pool, live.partnerId, "bond watcher", OPERATOR)).credential;
    await setLaunchReporting(api.db.pool, live.keyId, true, OPERATOR);
    await bindLaunchpad(api.db.pool, "pad", live.partnerId, OPERATOR);
  });
  after(async () => api.close());

  const post = (path: string, body: object) =>
    api.call({
      method: "POST",
      path: `/api/v1/${path}`,
      headers: { ...bearer(live.secret), "x-service-keeper": keeper },
      body,
    });
  const lockEvent = (kind: "bonded" | "milestone", name: string, extra: object = {}) =>
    post(`events/${kind}`, { chain: "hardhat", launchpad: "pad", name, ticker: "FCT", ...extra });
  const reportLaunch = async (name: string, launcher: string, tokenOrMint = CREATOR_TOKEN) => {
    const response = await post("launches/report", {
      chain: "hardhat",
      launchpad: "pad",
      name,
      ticker: "FCT",
      launcher,
      tokenOrMint,
    });
    expect(response.status, response.text).to.equal(200);
  };
  const reserve = (name: string, launcher: string, expiresInSeconds = 3600) =>
    mirrorReservation(api.db.pool, {
      chain: "hardhat",
      name,
      ticker: "FCT",
      launcher,
      expiresInSeconds,
      nowMs: api.clock.now(),
    });
  const check = async (name: string, launcher: string) =>
    (
      await api.call({
        path: `/api/v1/identity/check?name=${encodeURIComponent(name)}&ticker=FCT&chain=hardhat&launcher=${launcher}`,
        host: "api.test",
      })
    ).body as Record<string, unknown>;
  const auditOf = async (identityKey: string) =>
    (
      await api.db.pool.query<{
        actor: string;
        action: string;
        reason: string;
        details: Record<string, unknown>;
      }>("SELECT actor, action, reason, details FROM audit_log WHERE subject = $1 ORDER BY id", [
        `identity:production:${identityKey}`,
      ])
    ).rows;

  it("the unreserved-PEPE attack: a bond on a pair never launched is 409 launch_not_reported, nothing locked; the creator who reserves it is allowed", async () => {
    const refused = await lockEvent("bonded", "Pepe", { wasReserved: true });
    expectEnvelope(refused, 409, "launch_not_reported");
    expect((refused.body as { error: { message: string } }).error.message).to.match(
      /report the launch first/,
    );
    const locks = await api.db.pool.query("SELECT 1 FROM identity_locks WHERE identity_key = 'PEPE::FCT'");
    expect(locks.rowCount).to.equal(0);
    expect(await auditOf("PEPE::FCT")).to.deep.include({
      actor: `partner:${live.partnerId}`,
      action: "lock.refused",
      reason: "launch_not_reported",
      details: {
        chain: "hardhat",
        kind: "bonded",
        keyId: live.keyId,
        launchpad: "pad",
        wasReserved: true,
        refusal: null,
      },
    });
    await reserve("Pepe", CREATOR);
    expect(await check("Pepe", CREATOR)).to.include({ status: "authorized", decision: "allow" });
  });

  it("a launch reported by another partner does not count", async () => {
    const other = await issueKey(api, "production", { scopes: ["launch:report", "event:report"] });
    await setLaunchReporting(api.db.pool, other.keyId, true, OPERATOR);
    await bindLaunchpad(api.db.pool, "other-pad", other.partnerId, OPERATOR);
    const launch = await api.call({
      method: "POST",
      path: "/api/v1/launches/report",
      headers: bearer(other.secret),
      body: {
        chain: "hardhat",
        launchpad: "other-pad",
        name: "Borrowed",
        ticker: "FCT",
        launcher: COPYCAT,
        tokenOrMint: "0xt",
      },
    });
    expect(launch.status, launch.text).to.equal(200);
    expectEnvelope(await lockEvent("bonded", "Borrowed"), 409, "launch_not_reported");
  });

  it("bonded after a real launch report locks for that launch's launcher; reserved-or-not from the chain's holds", async () => {
    await reserve("Reserved Launch", CREATOR);
    await reportLaunch("Reserved Launch", CREATOR);
    const bonded = await lockEvent("bonded", "Reserved Launch");
    expect(bonded.status, bonded.text).to.equal(200);
    expect(bonded.body).to.include({
      authorizedLauncher: CREATOR,
      wasReserved: true,
      lockSeconds: 60 * 86_400,
      newExpiry: iso(T + 60 * DAY),
    });
    expect(await check("Reserved Launch", CREATOR)).to.include({ status: "authorized", decision: "allow" });
    expect(await check("Reserved Launch", COPYCAT)).to.include({ decision: "block", reason: "bonding_lock" });

    await reportLaunch("Plain Launch", COPYCAT);
    const plain = await lockEvent("bonded", "Plain Launch");
    expect(plain.body).to.include({
      authorizedLauncher: COPYCAT,
      wasReserved: false,
      lockSeconds: 48 * 3600,
    });
  });

  it("wasReserved contradicting the records is 409 reservation_state_mismatch, audited, nothing locked", async () => {
    await reportLaunch("Claimed Reserved", CREATOR);
    const claimed = await lockEvent("bonded", "Claimed Reserved", { wasReserved: true });
    expectEnvelope(claimed, 409, "reservation_state_mismatch");
    expect(claimed.body).to.nested.include({
      "error.details.claimedReserved": true,
      "error.details.reserved": false,
      "error.details.launcher": CREATOR,
    });
    await reserve("Claimed Free", CREATOR);
    await reportLaunch("Claimed Free", CREATOR);
    expectEnvelope(
      await lockEvent("milestone", "Claimed Free", { wasReserved: false }),
      409,
      "reservation_state_mismatch",
    );
    const locks = await api.db.pool.query(
      "SELECT 1 FROM identity_locks WHERE identity_key IN ('CLAIMEDRESERVED::FCT', 'CLAIMEDFREE::FCT')",
    );
    expect(locks.rowCount).to.equal(0);
    expect((await auditOf("CLAIMEDRESERVED::FCT")).map((row) => row.reason)).to.deep.equal([
      "reservation_state_mismatch",
    ]);
    // A matching statement is accepted.
    expect((await lockEvent("bonded", "Claimed Free", { wasReserved: true })).status).to.equal(200);
  });

  it("milestone: 90 days when the launcher reserved (at the launch, even once the window ended), 7 days when not", async () => {
    await reserve("Milestone Held", CREATOR, 3600);
    await reportLaunch("Milestone Held", CREATOR);
    await reportLaunch("Milestone Bare", CREATOR);
    api.clock.set(T + 3 * DAY); // the 1-hour reservation has long ended: the milestone comes later
    try {
      const held = await lockEvent("milestone", "Milestone Held");
      expect(held.status, held.text).to.equal(200);
      expect(held.body).to.include({
        wasReserved: true,
        lockSeconds: 90 * 86_400,
        newExpiry: iso(T + 3 * DAY + 90 * DAY),
      });
      const bare = await lockEvent("milestone", "Milestone Bare");
      expect(bare.body).to.include({ wasReserved: false, lockSeconds: 7 * 86_400 });
      // Reserved now by the launcher (after its launch): the identity is reserved, 90 days.
      await reserve("Milestone Bare", CREATOR, 3600);
      const now = await lockEvent("milestone", "Milestone Bare");
      expect(now.body).to.include({ wasReserved: true, lockSeconds: 90 * 86_400, extended: true });
    } finally {
      api.clock.set(T);
    }
  });

  it("a lock never overrides another wallet's live reservation: 409 identity_held, audited, in the status timeline", async () => {
    await reportLaunch("Held Elsewhere", COPYCAT);
    await reserve("Held Elsewhere", CREATOR, 7 * 86_400);
    const refused = await lockEvent("bonded", "Held Elsewhere", { wasReserved: false });
    expectEnvelope(refused, 409, "identity_held");
    expect(refused.body).to.nested.include({
      "error.details.reason": "reserved_by_another_wallet",
      "error.details.holder": CREATOR,
      "error.details.launcher": COPYCAT,
    });
    expect(await check("Held Elsewhere", CREATOR)).to.include({ status: "authorized", decision: "allow" });
    const audit = await auditOf("HELDELSEWHERE::FCT");
    expect(audit).to.have.length(1);
    expect(audit[0]).to.deep.include({ action: "lock.refused", reason: "identity_held" });
    expect(audit[0]?.details).to.nested.include({ "refusal.reason": "reserved_by_another_wallet" });
    const status = await api.call({
      path: "/api/v1/identity/status?key=HELDELSEWHERE::FCT",
      host: "api.test",
    });
    const timeline = (status.body as { timeline: { type: string; details: Record<string, unknown> }[] })
      .timeline;
    expect(timeline.find((entry) => entry.type === "lock_refused")?.details).to.include({
      code: "identity_held",
      reason: "reserved_by_another_wallet",
      holder: CREATOR,
      kind: "bonded",
    });
  });

  it("a live lock of one launcher is not extended for another launcher's launch", async () => {
    await reportLaunch("First Bond", CREATOR);
    expect((await lockEvent("bonded", "First Bond")).status).to.equal(200);
    await reportLaunch("First Bond", COPYCAT, COPYCAT_TOKEN);
    const refused = await lockEvent("milestone", "First Bond");
    expectEnvelope(refused, 409, "identity_held");
    expect(refused.body).to.nested.include({
      "error.details.reason": "locked_for_another_launcher",
      "error.details.authorizedLauncher": CREATOR,
    });
    // The newest launch is the copycat's; naming the creator's launch by its token extends the creator's lock.
    const named = await lockEvent("milestone", "First Bond", { tokenOrMint: CREATOR_TOKEN });
    expect(named.status, named.text).to.equal(200);
    expect(named.body).to.include({
      authorizedLauncher: CREATOR,
      tokenOrMint: CREATOR_TOKEN,
      extended: true,
    });
  });
});
