import { expect } from "chai";
import { SANDBOX_DESIGNATED_LAUNCHER } from "../../../../core/status";
import { blockIdentity, clearIdentity } from "../../../../services/identity/guardian";
import { revokeApiKey } from "../../../../services/partners/apiKeyStore";
import { createPool } from "../../../../storage/pool";
import { bearer, expectEnvelope, issueKey, startTestApi, type TestApi } from "../../support/harness";
import { startFaultyDatabaseProxy } from "./faultyDatabaseProxy";
import { CHAINS, EVM_OTHER, outboxTypes, SOL_OTHER, setCheckpoints } from "./support";

const OPERATOR = { actor: "guardian-1", reason: "copycat of a graduated token" };
const SANDBOX_HOST = "sandbox.test";
const PRODUCTION_HOST = "api.test";

interface Check {
  status: string;
  decision: string;
  chain: string;
  reason: string;
  available: boolean;
  adapter: string;
}

describe("api: identity check, status lookup, sandbox holds and guardian actions", () => {
  let api: TestApi;

  before(async () => {
    api = await startTestApi({ deps: { decisions: { chains: CHAINS } } });
    await setCheckpoints(api.db.pool);
  });
  after(async () => api.close());

  const check = async (query: string, host = SANDBOX_HOST, key?: string): Promise<Check> => {
    const response = await api.call({
      path: `/api/v1/identity/check?${query}`,
      host,
      ...(key === undefined ? {} : { headers: bearer(key) }),
    });
    expect(response.status, response.text).to.equal(200);
    return response.body as Check;
  };

  describe("seeded sandbox scenarios on the sandbox host", () => {
    const rows: [string, string, string | undefined, Partial<Check>][] = [
      ["SandboxFox", "SFOX", undefined, { status: "reserved", decision: "allow_authorized_only" }],
      ["SandboxFox", "SFOX", SANDBOX_DESIGNATED_LAUNCHER.evm, { status: "authorized", decision: "allow" }],
      ["SandboxFox", "SFOX", EVM_OTHER, { status: "blocked", decision: "block" }],
      ["MoonBadger", "BADGER", EVM_OTHER, { status: "blocked", decision: "block", reason: "bonding_lock" }],
      ["IronWhale", "IRON", undefined, { status: "protected", reason: "milestone_lock" }],
      ["DuskRaven", "DUSK", EVM_OTHER, { status: "expired", decision: "allow", available: true }],
      ["VampCoin", "VAMP", undefined, { status: "blocked", decision: "block", reason: "graduated_block" }],
      ["ClearSky", "CLEAR", EVM_OTHER, { status: "cleared", decision: "allow", available: true }],
      ["NightShade", "SHADE", EVM_OTHER, { status: "blocked", decision: "block", reason: "bonding_lock" }],
      ["Some Other Pair", "OTHER", EVM_OTHER, { status: "available", decision: "allow", available: true }],
    ];
    for (const [name, ticker, launcher, expected] of rows) {
      it(`${name}::${ticker}${launcher ? ` for ${launcher.slice(0, 8)}…` : ""}: ${expected.status} / ${expected.decision ?? ""}`, async () => {
        const query = `name=${encodeURIComponent(name)}&ticker=${ticker}&chain=hardhat${launcher ? `&launcher=${launcher}` : ""}`;
        expect(await check(query)).to.include({ ...expected, adapter: "mock" });
      });
    }
    it("the canonical and production hosts answer from production data: a seeded name is available there", async () => {
      expect(await check("name=SandboxFox&ticker=SFOX", "canonical.test")).to.include({
        status: "available",
        adapter: "index",
      });
      expect(await check("name=VampCoin&ticker=VAMP", PRODUCTION_HOST)).to.include({ status: "available" });
    });
    it("POST /v1/identity/check answers the same as GET", async () => {
      const response = await api.call({
        method: "POST",
        path: "/api/v1/identity/check",
        host: SANDBOX_HOST,
        body: { name: "vamp coin", ticker: "vamp" },
      });
      expect(response.body).to.include({ identityKey: "VAMPCOIN::VAMP", decision: "block" });
    });
    it("without a chain, every chain is evaluated and the answer names the deciding chain", async () => {
      // A partner's own hold on solana only: hardhat reads available, so solana is the most restrictive.
      const partner = await issueKey(api, "sandbox");
      const hold = await api.call({
        method: "POST",
        path: "/api/v1/reservations",
        host: SANDBOX_HOST,
        headers: bearer(partner.secret),
        body: {
          chain: "solana",
          name: "Every Chain",
          ticker: "EVCH",
          launcher: SOL_OTHER,
          durationSeconds: 86_400,
        },
      });
      expect(hold.status, hold.text).to.equal(201);
      expect(await check("name=Every%20Chain&ticker=EVCH", SANDBOX_HOST, partner.secret)).to.include({
        chain: "solana",
        decision: "allow_authorized_only",
      });
    });
    it("with a launcher and no chain, only the chains of the launcher's address family are evaluated", async () => {
      // The designated EVM wallet holds SANDBOXFOX on hardhat; the Solana hold is another wallet's, on a chain
      // where an EVM address can never launch, so it must not turn the answer into a block.
      expect(
        await check(`name=SandboxFox&ticker=SFOX&launcher=${SANDBOX_DESIGNATED_LAUNCHER.evm}`),
      ).to.include({ chain: "hardhat", status: "authorized", decision: "allow", launcherAuthorized: true });
      expect(
        await check(`name=SandboxFox&ticker=SFOX&launcher=${SANDBOX_DESIGNATED_LAUNCHER.solana}`),
      ).to.include({ chain: "solana", status: "authorized", decision: "allow", launcherAuthorized: true });
      expect(await check(`name=SandboxFox&ticker=SFOX&launcher=${SOL_OTHER}`)).to.include({
        chain: "solana",
        decision: "block",
      });
    });
    it("a launcher of no address family, or of the wrong family for the chain, is a 400 as in validate", async () => {
      for (const query of [
        "name=SandboxFox&ticker=SFOX&launcher=not-a-wallet",
        `name=SandboxFox&ticker=SFOX&chain=hardhat&launcher=${SOL_OTHER}`,
        `name=SandboxFox&ticker=SFOX&chain=solana&launcher=${EVM_OTHER}`,
      ]) {
        const response = await api.call({ path: `/api/v1/identity/check?${query}`, host: SANDBOX_HOST });
        expectEnvelope(response, 400, "invalid_request");
        expect((response.body as { error: { details: { field: string } } }).error.details.field).to.equal(
          "launcher",
        );
      }
    });
    it("a name that folds out of bounds is a 400, not an answer", async () => {
      const response = await api.call({
        path: "/api/v1/identity/check?name=%F0%9F%98%80&ticker=AB",
        host: SANDBOX_HOST,
      });
      expectEnvelope(response, 400, "invalid_request");
    });
  });

  describe("check parameters and keys", () => {
    it("`tx` / `reservationTx` need `chain` and a chain with a registry: a 400 that says what to send", async () => {
      // test/e2e/reservationTx.test.ts looks valid ones up on the local chains.
      const get = await api.call({
        path: `/api/v1/identity/check?name=Tx&ticker=TXX&tx=0x${"ab".repeat(32)}`,
        host: SANDBOX_HOST,
      });
      expectEnvelope(get, 400, "invalid_request");
      expect((get.body as { error: { details: unknown } }).error.details).to.deep.include({ in: "query" });
      expect(get.text).to.contain("`tx` needs `chain`");
      const post = await api.call({
        method: "POST",
        path: "/api/v1/identity/check",
        host: SANDBOX_HOST,
        body: { name: "Tx", ticker: "TXX", chain: "hardhat", reservationTx: `0x${"ab".repeat(32)}` },
      });
      expectEnvelope(post, 400, "invalid_request");
      expect((post.body as { error: { message: string } }).error.message).to.contain(
        '`reservationTx` is on chain "hardhat", which has no registry here',
      );
    });
    it("a revoked key is refused (401 key_revoked), saying the keyless check is one header away", async () => {
      const key = await issueKey(api, "sandbox");
      await revokeApiKey(api.db.pool, key.keyId, OPERATOR);
      const path = "/api/v1/identity/check?name=Revoked&ticker=RVK";
      const refused = await api.call({ path, host: SANDBOX_HOST, headers: bearer(key.secret) });
      expectEnvelope(refused, 401, "key_revoked");
      expect((refused.body as { error: { message: string } }).error.message).to.contain(
        "without the Authorization header",
      );
      expect((await api.call({ path, host: SANDBOX_HOST })).status).to.equal(200);
    });
  });

  describe("status lookup", () => {
    it("shows the record with its timeline (CLEARSKY: blocked, then cleared)", async () => {
      const response = await api.call({
        path: "/api/v1/identity/status?key=CLEARSKY::CLEAR",
        host: SANDBOX_HOST,
      });
      expect(response.status, response.text).to.equal(200);
      const body = response.body as { current: Check; timeline: { type: string }[] };
      expect(body.current.status).to.equal("cleared");
      expect(body.timeline.map((entry) => entry.type)).to.deep.equal([
        "guardian_blocked",
        "guardian_cleared",
      ]);
    });
    it("404 identity_not_found for an identity without records, 400 for a key that is not folded", async () => {
      expectEnvelope(
        await api.call({ path: "/api/v1/identity/status?key=NOBODY::NONE", host: SANDBOX_HOST }),
        404,
        "identity_not_found",
      );
      for (const key of ["lower::case", "FREE0::COIN", "NOSEPARATOR"]) {
        const response = await api.call({ path: `/api/v1/identity/status?key=${key}`, host: SANDBOX_HOST });
        expectEnvelope(response, 400, "invalid_request");
        const { error } = response.body as {
          error: { message: string; details: { in: string; issues: { path: string }[] } };
        };
        expect(error.message, key).to.contain("A-Z and the digits 2, 6 and 9 only");
        expect(error.message, key).to.not.contain("0-9");
        expect(error.details).to.deep.include({ in: "query" });
        expect(error.details.issues[0]?.path).to.equal("key");
      }
    });
  });

  describe("sandbox POST /v1/reservations", () => {
    let sandboxKey: string;
    let productionKey: string;
    before(async () => {
      sandboxKey = (await issueKey(api, "sandbox", { scopes: ["reservation:prepare"] })).secret;
      productionKey = (await issueKey(api, "production", { scopes: ["reservation:prepare"] })).secret;
    });
    const reserve = (body: Record<string, unknown>, key = sandboxKey) =>
      api.call({
        method: "POST",
        path: "/api/v1/reservations",
        host: SANDBOX_HOST,
        headers: bearer(key),
        body,
      });
    const hold = {
      chain: "hardhat",
      name: "Held Pair",
      ticker: "HELD",
      launcher: SANDBOX_DESIGNATED_LAUNCHER.evm,
    };

    it("requires durationSeconds, one of the four tiers", async () => {
      expectEnvelope(await reserve(hold), 400, "invalid_request");
      expectEnvelope(await reserve({ ...hold, durationSeconds: 3600 }), 400, "invalid_request");
    });
    it("seeds a hold: the partner's own check reads it blocked for others; keyless and production do not see it", async () => {
      const response = await reserve({ ...hold, durationSeconds: 86_400 });
      expect(response.status, response.text).to.equal(201);
      expect(response.body).to.include({
        status: "confirmed",
        simulated: true,
        identityKey: "HELDPAIR::HELD",
      });
      const query = `name=Held%20Pair&ticker=HELD&chain=hardhat&launcher=${EVM_OTHER}`;
      expect(await check(query, SANDBOX_HOST, sandboxKey)).to.include({ decision: "block" });
      expect(await check(query)).to.include({ status: "available", decision: "allow" });
      expect(await check("name=Held%20Pair&ticker=HELD&chain=hardhat", PRODUCTION_HOST)).to.include({
        status: "available",
      });
    });
    it("409 identity_held when the pair is held for another wallet", async () => {
      expectEnvelope(
        await reserve({ ...hold, launcher: EVM_OTHER, durationSeconds: 86_400 }),
        409,
        "identity_held",
      );
    });
    describe("launcher format per chain family, as in validate and prepare", () => {
      const badLaunchers = [
        "<script>alert(1)</script>",
        "../../etc/passwd",
        EVM_OTHER.slice(0, -1), // one hex digit short
      ];
      const cases = [
        { chain: "hardhat", bad: [...badLaunchers, SOL_OTHER], good: EVM_OTHER },
        {
          chain: "solana",
          bad: [...badLaunchers, EVM_OTHER, "0OIl0OIl0OIl0OIl0OIl0OIl0OIl0OIl"],
          good: SOL_OTHER,
        },
      ];
      for (const { chain, bad, good } of cases) {
        it(`${chain}: 400 naming launcher and chain for a malformed launcher, nothing stored; a good one is held`, async () => {
          const pair = { chain, name: `Format Check ${chain}`, ticker: "FMT", durationSeconds: 86_400 };
          for (const launcher of bad) {
            const response = await reserve({ ...pair, launcher });
            expectEnvelope(response, 400, "invalid_request");
            expect((response.body as { error: { details: unknown } }).error.details, launcher).to.deep.equal({
              field: "launcher",
              chain,
              requestId: response.headers["request-id"],
            });
            expect(response.text).to.not.contain(launcher);
          }
          const accepted = await reserve({ ...pair, launcher: good });
          expect(accepted.status, accepted.text).to.equal(201);
          expect(accepted.body).to.include({ chain, launcher: good });
          const stored = await api.db.pool.query(
            "SELECT launcher FROM sandbox_holds WHERE identity_key = $1 AND chain = $2",
            [(accepted.body as { identityKey: string }).identityKey, chain],
          );
          expect(stored.rows.map((row) => row.launcher)).to.deep.equal([good]);
        });
      }
    });
    it("403 sandbox_only for a production key", async () => {
      const response = await api.call({
        method: "POST",
        path: "/api/v1/reservations",
        host: "canonical.test",
        headers: bearer(productionKey),
        body: { ...hold, durationSeconds: 86_400 },
      });
      expectEnvelope(response, 403, "sandbox_only");
    });
  });

  describe("guardian actions", () => {
    it("a block applies to every launcher, a clear lifts it; both are audited and in the timeline", async () => {
      await blockIdentity(api.db.pool, { environment: "production", identityKey: "COPYCAT::CPY" }, OPERATOR);
      expect(await check(`name=copycat&ticker=cpy&launcher=${EVM_OTHER}`, PRODUCTION_HOST)).to.include({
        status: "blocked",
        reason: "guardian_block",
      });
      await clearIdentity(
        api.db.pool,
        { environment: "production", identityKey: "COPYCAT::CPY" },
        { actor: "guardian-2", reason: "mistaken" },
      );
      expect(await check("name=copycat&ticker=cpy", PRODUCTION_HOST)).to.include({
        status: "cleared",
        decision: "allow",
      });
      expect(await outboxTypes(api.db.pool, "COPYCAT::CPY")).to.deep.equal([
        "identity.protected",
        "identity.cleared",
      ]);
      const { rows } = await api.db.pool.query(
        "SELECT actor, action FROM audit_log WHERE subject = 'COPYCAT::CPY' ORDER BY id",
      );
      expect(rows).to.deep.equal([
        { actor: "guardian-1", action: "guardian.block" },
        { actor: "guardian-2", action: "guardian.clear" },
      ]);
      const status = await api.call({
        path: "/api/v1/identity/status?key=COPYCAT::CPY",
        host: PRODUCTION_HOST,
      });
      expect(
        (status.body as { timeline: { type: string }[] }).timeline.map((entry) => entry.type),
      ).to.deep.equal(["guardian_blocked", "guardian_cleared"]);
    });
    it("a graduated block is permanent and emits token.graduated", async () => {
      await blockIdentity(
        api.db.pool,
        { environment: "production", identityKey: "GRADUATE::GRAD", graduated: true },
        OPERATOR,
      );
      expect(await check("name=graduate&ticker=grad", PRODUCTION_HOST)).to.include({
        reason: "graduated_block",
      });
      expect(await outboxTypes(api.db.pool, "GRADUATE::GRAD")).to.deep.equal(["token.graduated"]);
    });
    it("a sandbox guardian action never changes a seeded scenario: it is built from the clock", async () => {
      await blockIdentity(api.db.pool, { environment: "sandbox", identityKey: "CLEARSKY::CLEAR" }, OPERATOR);
      expect(await check("name=ClearSky&ticker=CLEAR")).to.include({ status: "cleared", decision: "allow" });
    });
  });

  describe("data path unavailable", () => {
    it("the check answers decision unavailable (adapter unavailable), never allow", async () => {
      const proxy = await startFaultyDatabaseProxy(api.db.url);
      const pool = createPool({ connectionString: proxy.url, max: 2 });
      pool.on("error", () => undefined);
      const stopped = await startTestApi({
        db: { ...api.db, pool },
        deps: { decisions: { chains: CHAINS } },
      });
      try {
        proxy.stop();
        const response = await stopped.call({
          path: "/api/v1/identity/check?name=Anything&ticker=ANY",
          host: PRODUCTION_HOST,
        });
        expect(response.body).to.include({
          decision: "unavailable",
          adapter: "unavailable",
          status: "unknown",
          available: false,
        });
      } finally {
        await stopped.close();
        await pool.end();
        await proxy.close();
      }
    });
  });
});
