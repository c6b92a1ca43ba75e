import { expect } from "chai";
import { createSecretBox } from "../../../../core/secrets/secretBox";
import { SANDBOX_DESIGNATED_LAUNCHER } from "../../../../core/status";
import { bindLaunchpad } from "../../../../services/partners/launchpads";
import { revokeSigningKey, rotateSigningKey } from "../../../../services/signing/signingKeyStore";
import { quoteIdentifier } from "../../../../storage/database";
import { createPool } from "../../../../storage/pool";
import { bearer, expectEnvelope, issueKey, startTestApi, type TestApi } from "../../support/harness";
import { send } from "../../support/http";
import { startFaultyDatabaseProxy } from "./faultyDatabaseProxy";
import {
  CHAINS,
  EVM_OTHER,
  EVM_OWNER,
  independentlyVerified,
  mirrorReservation,
  outboxTypes,
  publishedKeys,
  SOL_OTHER,
  setCheckpoints,
} from "./support";

type Decision = Record<string, string | undefined>;
const OPERATOR = { actor: "test-operator", reason: "test" };

describe("api: POST /v1/launches/validate", () => {
  let api: TestApi;
  let live: { secret: string; partnerId: string; keyId: string };
  let sandbox: { secret: string; partnerId: string };

  before(async () => {
    api = await startTestApi({ deps: { decisions: { chains: CHAINS } } });
    await setCheckpoints(api.db.pool);
    live = await issueKey(api, "production", { scopes: ["launch:validate"], rateLimitPerMinute: 2000 });
    sandbox = await issueKey(api, "sandbox", { scopes: ["launch:validate"] });
    await bindLaunchpad(api.db.pool, "pad-7", live.partnerId, { actor: "test", reason: "audit test" });
    await mirrorReservation(api.db.pool, {
      chain: "hardhat",
      name: "Reserved Coin",
      ticker: "RSV",
      launcher: EVM_OWNER,
      expiresInSeconds: 3600,
    });
  });
  after(async () => api.close());

  const validate = (body: Record<string, unknown>, key = live.secret, headers: Record<string, string> = {}) =>
    api.call({
      method: "POST",
      path: "/api/v1/launches/validate",
      headers: { ...bearer(key), ...headers },
      body,
    });

  async function verifiedDecision(
    body: Record<string, unknown>,
    environment: "production" | "sandbox" = "production",
  ): Promise<Decision> {
    const response = await validate(body, environment === "production" ? live.secret : sandbox.secret);
    expect(response.status, response.text).to.equal(200);
    const decision = response.body as Decision;
    expect(
      independentlyVerified(decision, await publishedKeys(api, environment)),
      "independent verification",
    ).to.equal(true);
    return decision;
  }

  describe("decisions, each verified by an independent node:crypto verifier", () => {
    it("a free pair: allow for any launcher, nonce echoed and signed, five-minute lifetime", async () => {
      const response = await validate({
        chain: "hardhat",
        name: "free coin",
        ticker: "fr33",
        launcher: EVM_OTHER,
        nonce: "n-1",
      });
      expect(response.status, response.text).to.equal(200);
      expect(response.headers["ratelimit-remaining"]).to.match(/^\d+$/);
      const decision = response.body as Decision;
      expect(decision).to.include({
        decision: "allow",
        identityKey: "FREECOIN::FREE",
        nonce: "n-1",
        environment: "production",
        chain: "hardhat",
      });
      expect(Date.parse(decision.expiresAt as string) - Date.parse(decision.issuedAt as string)).to.equal(
        300_000,
      );
      expect(independentlyVerified(decision, await publishedKeys(api, "production"))).to.equal(true);
      expect(
        independentlyVerified({ ...decision, nonce: "n-2" }, await publishedKeys(api, "production")),
        "nonce is signed",
      ).to.equal(false);
    });

    it("the authorized launcher of a reserved pair: allow (EVM address in another case), launch.authorized", async () => {
      const decision = await verifiedDecision({
        chain: "hardhat",
        name: "RESERVED-COIN",
        ticker: "rsv",
        launcher: EVM_OWNER.toLowerCase(),
      });
      expect(decision).to.include({ decision: "allow", reason: "authorized_launcher" });
      expect(await outboxTypes(api.db.pool, "RESERVEDCOIN::RSV")).to.include("launch.authorized");
    });

    it("another launcher: block, with launch.blocked and identity.blocked_attempt in the outbox", async () => {
      const decision = await verifiedDecision({
        chain: "hardhat",
        name: "Reserved Coin",
        ticker: "RSV",
        launcher: EVM_OTHER,
      });
      expect(decision).to.include({ decision: "block", reason: "active_reservation" });
      const types = await outboxTypes(api.db.pool, "RESERVEDCOIN::RSV");
      expect(types).to.include.members(["launch.blocked", "identity.blocked_attempt"]);
    });

    it("look-alike variants fold to the same identity and get the same decision", async () => {
      const decision = await verifiedDecision({
        chain: "hardhat",
        name: "R3S3RV3D C0IN",
        ticker: "R$V",
        launcher: EVM_OTHER,
      });
      expect(decision).to.include({ identityKey: "RESERVEDCOIN::RSV", decision: "block" });
    });

    it("the reservation on one chain does not block the same pair on another chain", async () => {
      const decision = await verifiedDecision({
        chain: "solana",
        name: "Reserved Coin",
        ticker: "RSV",
        launcher: SOL_OTHER,
      });
      expect(decision.decision).to.equal("allow");
    });

    it("records every decision for audit", async () => {
      const decision = await verifiedDecision({
        chain: "hardhat",
        name: "Audit Me",
        ticker: "AUD",
        launcher: EVM_OTHER,
        launchpad: "pad-7",
      });
      const { rows } = await api.db.pool.query(
        "SELECT partner_id, api_key_id, status, signed FROM decisions WHERE request_id = $1",
        [decision.requestId],
      );
      expect(rows[0]).to.include({ partner_id: live.partnerId, api_key_id: live.keyId, status: "available" });
      const { advisories: _unsigned, responseVersion: _answer, ...signed } = decision;
      expect(rows[0].signed, "the signed decision exactly as answered").to.deep.equal(signed);
      expect(rows[0].signed).to.include({ decision: "allow", launchpadId: "pad-7", keyId: decision.keyId });
    });

    it("gives each decision a new request id that sorts after the ones before it (time-ordered UUID)", async () => {
      const body = { chain: "hardhat", name: "Ordered Ids", ticker: "ORD", launcher: EVM_OTHER };
      const ids: string[] = [];
      for (let index = 0; index < 5; index += 1) ids.push((await verifiedDecision(body)).requestId as string);
      for (const id of ids)
        expect(id).to.match(/^dec_[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(new Set(ids).size, "unique").to.equal(ids.length);
      expect([...ids].sort(), "each after the one before").to.deep.equal(ids);
    });
  });

  describe("sandbox", () => {
    it("SANDBOXFOX: the designated launcher gets allow, others block, signed by a sandbox-only key", async () => {
      const allowed = await verifiedDecision(
        { chain: "hardhat", name: "SandboxFox", ticker: "SFOX", launcher: SANDBOX_DESIGNATED_LAUNCHER.evm },
        "sandbox",
      );
      expect(allowed).to.include({ decision: "allow", environment: "sandbox" });
      const blocked = await verifiedDecision(
        { chain: "hardhat", name: "SandboxFox", ticker: "SFOX", launcher: EVM_OTHER },
        "sandbox",
      );
      expect(blocked.decision).to.equal("block");
      const productionKids = (await publishedKeys(api, "production")).map((key) => key.kid);
      expect(productionKids).to.not.include(allowed.keyId);
    });
    it("VAMPCOIN is always blocked; any other pair is allowed", async () => {
      const vamp = await verifiedDecision(
        { chain: "solana", name: "Vampcoin", ticker: "VAMP", launcher: SANDBOX_DESIGNATED_LAUNCHER.solana },
        "sandbox",
      );
      expect(vamp).to.include({ decision: "block", reason: "graduated_block" });
      const other = await verifiedDecision(
        { chain: "solana", name: "Anything Else", ticker: "ELSE", launcher: SOL_OTHER },
        "sandbox",
      );
      expect(other.decision).to.equal("allow");
    });
    it("a seeded sandbox name is not protected in production", async () => {
      const decision = await verifiedDecision({
        chain: "hardhat",
        name: "SandboxFox",
        ticker: "SFOX",
        launcher: EVM_OTHER,
      });
      expect(decision.decision).to.equal("allow");
    });
  });

  describe("idempotency and input", () => {
    it("replays the stored decision for the same Idempotency-Key", async () => {
      const body = { chain: "hardhat", name: "Replay", ticker: "RPL", launcher: EVM_OTHER };
      const first = await validate(body, live.secret, { "idempotency-key": "idem-1" });
      const second = await validate(body, live.secret, { "idempotency-key": "idem-1" });
      expect(second.status).to.equal(200);
      expect(second.headers["idempotency-replayed"]).to.equal("true");
      expect((second.body as Decision).requestId).to.equal((first.body as Decision).requestId);
      const { rows } = await api.db.pool.query(
        "SELECT count(*)::int AS n FROM decisions WHERE signed->>'identityKey' = 'REPLAY::RPL'",
      );
      expect(rows[0].n).to.equal(1);
    });
    it("a body nonce is an idempotency key too", async () => {
      const body = {
        chain: "hardhat",
        name: "Nonce Replay",
        ticker: "NRP",
        launcher: EVM_OTHER,
        nonce: "nonce-77",
      };
      const first = await validate(body);
      const second = await validate(body);
      expect((second.body as Decision).requestId).to.equal((first.body as Decision).requestId);
    });
    for (const [how, headers, nonce] of [
      ["Idempotency-Key", { "idempotency-key": "idem-lifetime" }, undefined],
      ["body nonce", {}, "nonce-lifetime"],
    ] as const) {
      it(`replays a decision only while it lives; after its expiresAt the same ${how} signs a fresh one`, async () => {
        const body = {
          chain: "hardhat",
          name: `Lifetime ${how}`,
          ticker: "LIFE",
          launcher: EVM_OTHER,
          nonce,
        };
        const first = (await validate(body, live.secret, headers)).body as Decision;
        try {
          api.clock.set(Date.parse(first.expiresAt as string) - 1_000);
          const replay = await validate(body, live.secret, headers);
          expect(replay.headers["idempotency-replayed"]).to.equal("true");
          expect(replay.body).to.deep.equal(first);

          api.clock.set(Date.parse(first.expiresAt as string) + 1);
          const fresh = await validate(body, live.secret, headers);
          expect(fresh.status, fresh.text).to.equal(200);
          expect(fresh.headers["idempotency-replayed"]).to.equal(undefined);
          const decision = fresh.body as Decision;
          expect(decision.requestId).to.not.equal(first.requestId);
          expect(Date.parse(decision.issuedAt as string)).to.equal(Date.parse(first.expiresAt as string) + 1);
          expect(decision.nonce).to.equal(nonce);
          expect(independentlyVerified(decision, await publishedKeys(api, "production"))).to.equal(true);

          const again = await validate(body, live.secret, headers);
          expect(again.headers["idempotency-replayed"], "the fresh decision is replayed in turn").to.equal(
            "true",
          );
          expect((again.body as Decision).requestId).to.equal(decision.requestId);
        } finally {
          api.clock.unpin();
        }
      });
    }
    it("rejects an unknown chain, a launcher of the wrong family and an out-of-bounds fold with 400", async () => {
      expectEnvelope(
        await validate({ chain: "nochain", name: "A", ticker: "AB", launcher: EVM_OTHER }),
        400,
        "invalid_request",
      );
      expectEnvelope(
        await validate({ chain: "solana", name: "A", ticker: "AB", launcher: EVM_OTHER }),
        400,
        "invalid_request",
      );
      expectEnvelope(
        await validate({ chain: "hardhat", name: "!!!", ticker: "AB", launcher: EVM_OTHER }),
        400,
        "invalid_request",
      );
      expectEnvelope(await validate({ chain: "hardhat", name: "A", ticker: "AB" }), 400, "invalid_request");
    });
    it("needs the launch:validate scope", async () => {
      const reporter = await issueKey(api, "production", { scopes: ["launch:report"] });
      expectEnvelope(
        await validate({ chain: "hardhat", name: "A", ticker: "AB", launcher: EVM_OTHER }, reporter.secret),
        403,
        "scope_missing",
      );
    });
  });

  describe("signing keys", () => {
    it("a rotation in the middle of a stream of validations loses no verification", async () => {
      const box = createSecretBox(api.masterKey);
      const decisions: Decision[] = [];
      const batch = (round: number) =>
        Promise.all(
          Array.from({ length: 10 }, (_, index) =>
            validate({
              chain: "hardhat",
              name: `Stream ${round} ${index}`,
              ticker: "STRM",
              launcher: EVM_OTHER,
            }).then((response) => {
              expect(response.status, response.text).to.equal(200);
              decisions.push(response.body as Decision);
            }),
          ),
        );
      await batch(0);
      await batch(1);
      // Between concurrent batches: on the embedded database, a key-store transaction racing partner
      // authentication on other connections made authentication miss the key (see docs/decisions.md).
      await rotateSigningKey(api.db.pool, box, "production", OPERATOR);
      await batch(2);
      await batch(3);
      const keys = await publishedKeys(api, "production");
      expect(keys.filter((key) => key.status === "active")).to.have.length(1);
      expect(new Set(decisions.map((decision) => decision.keyId)).size).to.be.greaterThan(1);
      expect(decisions.filter((decision) => !independentlyVerified(decision, keys))).to.deep.equal([]);
    });
    it("after an emergency revocation the next decision is signed by the replacement; old ones fail", async () => {
      const before = await verifiedDecision({
        chain: "hardhat",
        name: "Before Revoke",
        ticker: "BRV",
        launcher: EVM_OTHER,
      });
      const { replacementKid } = await revokeSigningKey(
        api.db.pool,
        createSecretBox(api.masterKey),
        before.keyId as string,
        OPERATOR,
      );
      const after = await verifiedDecision({
        chain: "hardhat",
        name: "After Revoke",
        ticker: "ARV",
        launcher: EVM_OTHER,
      });
      expect(after.keyId).to.equal(replacementKid);
      const keys = await publishedKeys(api, "production");
      expect(keys.find((key) => key.kid === before.keyId)?.status).to.equal("revoked");
      expect(independentlyVerified(before, keys)).to.equal(false);
      const verdict = await api.call({ method: "POST", path: "/api/v1/decisions/verify", body: before });
      expect(verdict.body).to.include({ valid: false, reason: "revoked_key" });
    });
  });

  describe("faults: 503 or a signed recheck_required, never an allow", () => {
    it("indexer behind its freshness bound: signed recheck_required, even for the authorized launcher", async () => {
      await setCheckpoints(api.db.pool, 600, [CHAINS[0] as (typeof CHAINS)[number]]);
      try {
        const owner = await verifiedDecision({
          chain: "hardhat",
          name: "Reserved Coin",
          ticker: "RSV",
          launcher: EVM_OWNER,
        });
        const free = await verifiedDecision({
          chain: "hardhat",
          name: "Free Later",
          ticker: "FRL",
          launcher: EVM_OTHER,
        });
        expect([owner.decision, free.decision]).to.deep.equal(["recheck_required", "recheck_required"]);
        expect(free.reason).to.equal("index_behind");
      } finally {
        await setCheckpoints(api.db.pool);
      }
    });

    it("a chain never indexed: signed recheck_required", async () => {
      await api.db.pool.query("DELETE FROM chain_checkpoints WHERE chain = 'solana'");
      try {
        const decision = await verifiedDecision({
          chain: "solana",
          name: "Fresh Sol",
          ticker: "FSOL",
          launcher: SOL_OTHER,
        });
        expect(decision).to.include({ decision: "recheck_required", reason: "index_not_started" });
      } finally {
        await setCheckpoints(api.db.pool);
      }
    });

    it("signer unavailable (no master key): 503 service_unavailable", async () => {
      const keyless = await startTestApi({
        db: api.db,
        deps: { decisions: { chains: CHAINS }, masterKey: undefined },
      });
      try {
        const response = await keyless.call({
          method: "POST",
          path: "/api/v1/launches/validate",
          headers: bearer(live.secret),
          body: { chain: "hardhat", name: "No Signer", ticker: "NOS", launcher: EVM_OTHER },
        });
        expectEnvelope(response, 503, "service_unavailable");
      } finally {
        await keyless.close();
      }
    });

    it("signer unavailable (sealed key does not open): 503 service_unavailable", async () => {
      const otherMasterKey = await startTestApi({
        db: api.db,
        deps: { decisions: { chains: CHAINS }, masterKey: Buffer.alloc(32, 7) },
      });
      try {
        const response = await otherMasterKey.call({
          method: "POST",
          path: "/api/v1/launches/validate",
          headers: bearer(live.secret),
          body: { chain: "hardhat", name: "Wrong Master", ticker: "WRM", launcher: EVM_OTHER },
        });
        expectEnvelope(response, 503, "service_unavailable");
      } finally {
        await otherMasterKey.close();
      }
    });

    describe("database stopped", () => {
      async function appThroughProxy() {
        const proxy = await startFaultyDatabaseProxy(api.db.url);
        const pool = createPool({
          connectionString: proxy.url,
          options: `-c search_path=${quoteIdentifier(api.db.schema)}`,
          max: 4,
        });
        pool.on("error", () => undefined);
        const proxied = await startTestApi({
          db: { ...api.db, pool },
          deps: { decisions: { chains: CHAINS, dataPathTimeoutMs: 1000 }, masterKey: api.masterKey },
        });
        return { proxy, pool, proxied };
      }
      const request = { chain: "hardhat", name: "Db Down", ticker: "DBD", launcher: EVM_OTHER };

      it("stopping in the middle of a validation: 503 service_unavailable, no decision recorded", async () => {
        const { proxy, pool, proxied } = await appThroughProxy();
        try {
          const warm = await proxied.call({
            method: "POST",
            path: "/api/v1/launches/validate",
            headers: bearer(live.secret),
            body: { ...request, name: "Warm Up" },
          });
          expect(warm.status, warm.text).to.equal(200);
          proxy.failOn("DBDOWN::DBD"); // the first statement that carries this identity dies with the database
          const response = await proxied.call({
            method: "POST",
            path: "/api/v1/launches/validate",
            headers: bearer(live.secret),
            body: request,
          });
          expectEnvelope(response, 503, "service_unavailable");
          const { rows } = await api.db.pool.query(
            "SELECT count(*)::int AS n FROM decisions WHERE signed->>'identityKey' = 'DBDOWN::DBD'",
          );
          expect(rows[0].n).to.equal(0);
        } finally {
          await proxied.close();
          await pool.end();
          await proxy.close();
        }
      });

      it("stopped before the request: 503 service_unavailable, never a decision", async () => {
        const { proxy, pool, proxied } = await appThroughProxy();
        try {
          proxy.stop();
          const response = await send(proxied.url, {
            method: "POST",
            path: "/api/v1/launches/validate",
            headers: bearer(live.secret),
            body: request,
          });
          expect(response.status).to.equal(503);
          expect(response.body).to.nested.include({ "error.code": "service_unavailable" });
          expect(response.body).to.not.have.property("decision");
        } finally {
          await proxied.close();
          await pool.end();
          await proxy.close();
        }
      });
    });
  });
});
