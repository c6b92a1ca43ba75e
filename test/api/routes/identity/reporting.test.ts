import { expect } from "chai";
import { issueKeeperCredential, setLaunchReporting } from "../../../../services/identity/keeperCredentials";
import { bindLaunchpad } from "../../../../services/partners/launchpads";
import { bearer, expectEnvelope, issueKey, type TestApi } from "../../support/harness";
import { EVM_OTHER, EVM_OWNER, mirrorReservation, outboxTypes, pinnedDecisionApi } from "./support";

const OPERATOR = { actor: "test-operator", reason: "test" };
const T = Date.parse("2026-11-22T12:00:00.000Z");
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const iso = (ms: number) => new Date(ms).toISOString();

interface LockAnswer {
  previousExpiry: string | null;
  newExpiry: string;
  lockSeconds: number;
  extended: boolean;
  authorizedLauncher: string | null;
}

describe("api: reporting (launch report, bonded and milestone events)", () => {
  let api: TestApi;
  let live: { secret: string; keyId: string; partnerId: string };
  let keeper: string;
  let sandbox: { secret: string };

  before(async () => {
    api = await pinnedDecisionApi(T);
    live = await issueKey(api, "production", { scopes: ["launch:report", "event:report"] });
    sandbox = await issueKey(api, "sandbox", { scopes: ["launch:report", "event:report"] });
    keeper = (await issueKeeperCredential(api.db.pool, live.partnerId, "bond watcher", OPERATOR)).credential;
    await bindLaunchpad(api.db.pool, "pad", live.partnerId, OPERATOR);
  });
  after(async () => api.close());

  const post = (path: string, body: object, key = live.secret, headers: Record<string, string> = {}) =>
    api.call({ method: "POST", path: `/api/v1/${path}`, headers: { ...bearer(key), ...headers }, body });
  const lockEvent = (kind: "bonded" | "milestone", name: string, wasReserved?: boolean, chain = "hardhat") =>
    post(`events/${kind}`, { chain, launchpad: "pad", name, ticker: "LCK", wasReserved }, live.secret, {
      "x-service-keeper": keeper,
    });
  /** A launch of NAME::LCK on hardhat by `launcher`, reported by the live partner; reserved by it first when asked. */
  const launched = async (name: string, options: { reserved?: boolean; launcher?: string } = {}) => {
    const launcher = options.launcher ?? EVM_OWNER;
    if (options.reserved)
      await mirrorReservation(api.db.pool, {
        chain: "hardhat",
        name,
        ticker: "LCK",
        launcher,
        expiresInSeconds: 3600,
        nowMs: api.clock.now(),
      });
    await setLaunchReporting(api.db.pool, live.keyId, true, OPERATOR);
    const response = await post("launches/report", {
      chain: "hardhat",
      launchpad: "pad",
      name,
      ticker: "LCK",
      launcher,
      tokenOrMint: `0x${name.length.toString(16).padStart(40, "0")}`,
    });
    expect(response.status, response.text).to.equal(200);
  };

  describe("launch report", () => {
    const report = {
      chain: "hardhat",
      launchpad: "pad",
      name: "Launched One",
      ticker: "L1",
      launcher: EVM_OTHER,
      tokenOrMint: "0xtoken",
    };

    it("403 launch_reporting_restricted for a production key without reporting access", async () => {
      expectEnvelope(await post("launches/report", report), 403, "launch_reporting_restricted");
    });
    it("records a launched event (no lock) and launch.reported, not deduplicated", async () => {
      await setLaunchReporting(api.db.pool, live.keyId, true, OPERATOR);
      const first = await post("launches/report", report);
      expect(first.status, first.text).to.equal(200);
      expect(first.body).to.include({ recorded: true, identityKey: "LAUNCHEDONE::LI" });
      const second = await post("launches/report", report);
      expect(second.status).to.equal(200);
      expect(await outboxTypes(api.db.pool, "LAUNCHEDONE::LI")).to.deep.equal([
        "launch.reported",
        "launch.reported",
      ]);
      const check = await api.call({
        path: "/api/v1/identity/check?name=Launched%20One&ticker=L1&chain=hardhat",
        host: "api.test",
      });
      expect(check.body).to.include({ status: "launched", decision: "allow", protectedUntil: null });
    });
    it("sandbox keys report without an operator grant", async () => {
      const response = await post(
        "launches/report",
        { ...report, launchpad: "sandbox-pad", name: "Sandbox Launch" },
        sandbox.secret,
      );
      expect(response.status, response.text).to.equal(200);
    });
    it("needs the launch:report scope", async () => {
      const other = await issueKey(api, "production", { scopes: ["event:report"] });
      expectEnvelope(await post("launches/report", report, other.secret), 403, "scope_missing");
    });
  });

  describe("keeper header (production)", () => {
    const body = {
      chain: "hardhat",
      launchpad: "pad",
      name: "Keeper Coin",
      ticker: "KPR",
      wasReserved: false,
    };
    it("403 keeper_required without X-Service-Keeper, with a forged one, or with another partner's", async () => {
      expectEnvelope(await post("events/bonded", body), 403, "keeper_required");
      expectEnvelope(
        await post("events/bonded", body, live.secret, { "x-service-keeper": `${keeper.slice(0, -4)}AAAA` }),
        403,
        "keeper_required",
      );
      const stranger = await issueKeeperCredential(api.db.pool, "other-partner", "x", OPERATOR);
      expectEnvelope(
        await post("events/milestone", body, live.secret, { "x-service-keeper": stranger.credential }),
        403,
        "keeper_required",
      );
      expect(await outboxTypes(api.db.pool, "KEEPERCOIN::KPR")).to.deep.equal([]);
    });
    it("sandbox event reports need no keeper", async () => {
      const launch = {
        chain: "hardhat",
        launchpad: "sandbox-pad",
        name: "Sandbox Keeper",
        ticker: "KPR",
        launcher: EVM_OTHER,
        tokenOrMint: "0xtoken",
      };
      expect((await post("launches/report", launch, sandbox.secret)).status).to.equal(200);
      const response = await post(
        "events/bonded",
        { ...body, launchpad: "sandbox-pad", name: "Sandbox Keeper" },
        sandbox.secret,
      );
      expect(response.status, response.text).to.equal(200);
    });
  });

  describe("lock lengths", () => {
    const table: ["bonded" | "milestone", boolean, number][] = [
      ["bonded", true, 60 * DAY],
      ["bonded", false, 48 * HOUR],
      ["milestone", true, 90 * DAY],
      ["milestone", false, 7 * DAY],
    ];
    for (const [kind, wasReserved, length] of table) {
      it(`${kind}, wasReserved=${wasReserved}: ${length / HOUR} hours`, async () => {
        await launched(`Len ${kind} ${wasReserved}`, { reserved: wasReserved });
        const response = await lockEvent(kind, `Len ${kind} ${wasReserved}`, wasReserved);
        expect(response.status, response.text).to.equal(200);
        expect(response.body).to.include({
          previousExpiry: null,
          newExpiry: iso(T + length),
          lockSeconds: length / 1000,
        });
      });
    }
  });

  describe("longest-lock", () => {
    it("never shortens, reports previous and new expiry, and emits each event", async () => {
      await launched("Longest");
      const first = (await lockEvent("bonded", "Longest")).body as LockAnswer;
      expect(first).to.include({ previousExpiry: null, newExpiry: iso(T + 48 * HOUR), extended: true });
      const longer = (await lockEvent("milestone", "Longest")).body as LockAnswer;
      expect(longer).to.include({
        previousExpiry: iso(T + 48 * HOUR),
        newExpiry: iso(T + 7 * DAY),
        extended: true,
      });
      const shorter = (await lockEvent("bonded", "Longest")).body as LockAnswer;
      expect(shorter).to.include({
        previousExpiry: iso(T + 7 * DAY),
        newExpiry: iso(T + 7 * DAY),
        extended: false,
      });
      expect(await outboxTypes(api.db.pool, "LONGEST::LCK")).to.deep.equal([
        "launch.reported",
        "token.bonded",
        "identity.protected",
        "milestone.verified",
        "identity.extended",
        "token.bonded",
      ]);
      const check = await api.call({
        path: "/api/v1/identity/check?name=Longest&ticker=LCK&chain=hardhat",
        host: "api.test",
      });
      expect(check.body).to.include({ status: "protected", protectedUntil: iso(T + 7 * DAY) });
    });

    it("the lock's launcher is the reserving launcher's; others are blocked by it", async () => {
      await launched("Owned", { reserved: true });
      const answer = (await lockEvent("bonded", "Owned", true)).body as LockAnswer;
      expect(answer.authorizedLauncher).to.equal(EVM_OWNER);
      const other = await api.call({
        path: `/api/v1/identity/check?name=Owned&ticker=LCK&chain=hardhat&launcher=${EVM_OTHER}`,
        host: "api.test",
      });
      expect(other.body).to.include({ status: "blocked", reason: "bonding_lock" });
    });

    it("on a never-reserved identity, the launcher of the launch report", async () => {
      await launched("Unreserved", { launcher: EVM_OTHER });
      const answer = (await lockEvent("bonded", "Unreserved", false)).body as LockAnswer;
      expect(answer).to.include({ authorizedLauncher: EVM_OTHER, newExpiry: iso(T + 48 * HOUR) });
      const other = await api.call({
        path: `/api/v1/identity/check?name=Unreserved&ticker=LCK&chain=hardhat&launcher=${EVM_OWNER}`,
        host: "api.test",
      });
      expect(other.body).to.include({ decision: "block", status: "blocked" });
    });

    it("a lock lapses after its length and the pair reads expired, available again", async () => {
      await launched("Lapsing");
      expect((await lockEvent("bonded", "Lapsing", false)).status).to.equal(200);
      api.clock.set(T + 48 * HOUR);
      try {
        const check = await api.call({
          path: "/api/v1/identity/check?name=Lapsing&ticker=LCK&chain=hardhat",
          host: "api.test",
        });
        expect(check.body).to.include({ status: "expired", decision: "allow", available: true });
      } finally {
        api.clock.set(T);
      }
    });

    it("rejects an unknown chain without recording anything", async () => {
      expectEnvelope(await lockEvent("bonded", "Nowhere", true, "nochain"), 400, "invalid_request");
      expect(await outboxTypes(api.db.pool, "NOWHERE::LCK")).to.deep.equal([]);
    });
  });
});
