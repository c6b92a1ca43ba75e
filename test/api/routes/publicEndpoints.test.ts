import { Validator } from "@seriousme/openapi-schema-validator";
import { expect } from "chai";
import { createDecisionSigner, type SignedDecision } from "../../../core/decision";
import type { GeneratedSigningKey } from "../../../core/keyring";
import { expectEnvelope, startTestApi, type TestApi } from "../support/harness";
import {
  insertCheckpoint,
  insertGuardianAction,
  insertLaunch,
  insertLock,
  insertReservation,
  insertSigningKey,
} from "../support/readModelRows";

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

interface KeysBody {
  environment: string;
  keys: { kid: string; status: string; active: boolean; environment: string }[];
}

describe("api: public endpoints over HTTP", () => {
  let api: TestApi;
  before(async () => {
    api = await startTestApi();
  });
  after(async () => api.close());

  describe("signing keys, well-known document and decision verification", () => {
    const base = Date.now() - 10 * DAY_MS;
    let retiring: GeneratedSigningKey;
    let active: GeneratedSigningKey;
    let revoked: GeneratedSigningKey;
    let sandbox: GeneratedSigningKey;

    before(async () => {
      revoked = await insertSigningKey(api.db.pool, "production", "revoked", new Date(base));
      retiring = await insertSigningKey(api.db.pool, "production", "retiring", new Date(base + DAY_MS));
      active = await insertSigningKey(api.db.pool, "production", "active", new Date(base + 2 * DAY_MS));
      sandbox = await insertSigningKey(api.db.pool, "sandbox", "active", new Date(base));
    });

    function sign(key: GeneratedSigningKey, issuedAt = new Date()): SignedDecision {
      return createDecisionSigner({
        kid: key.record.kid,
        environment: key.record.environment,
        privateKey: key.privateKey,
      })({
        requestId: "req_1",
        identityKey: "MOON::MOON",
        normalizedName: "MOON",
        normalizedTicker: "MOON",
        chain: "hardhat",
        launchpadId: "ptn_1",
        launcher: "0x00000000000000000000000000000000000000aa",
        decision: "allow",
        reason: "no_conflict",
        issuedAt,
      });
    }

    const verify = (body: unknown, host?: string) =>
      api.call({ method: "POST", path: "/api/v1/decisions/verify", body, ...(host ? { host } : {}) });

    it("GET /v1/keys lists the host environment's keys: active, then retiring, then revoked", async () => {
      const response = await api.call({ path: "/api/v1/keys" });
      expect(response.status).to.equal(200);
      expect(response.headers["cache-control"]).to.equal("public, max-age=300");
      const body = response.body as KeysBody;
      expect(body.environment).to.equal("production");
      expect(body.keys.map((key) => [key.kid, key.status, key.active])).to.deep.equal([
        [active.record.kid, "active", true],
        [retiring.record.kid, "retiring", false],
        [revoked.record.kid, "revoked", false],
      ]);
    });

    it("GET /v1/keys?environment= selects a ring; the sandbox host defaults to sandbox keys", async () => {
      const chosen = (await api.call({ path: "/api/v1/keys?environment=sandbox" })).body as KeysBody;
      expect(chosen.keys.map((key) => key.kid)).to.deep.equal([sandbox.record.kid]);
      const onSandboxHost = (await api.call({ path: "/api/v1/keys", host: "sandbox.test" })).body as KeysBody;
      expect(onSandboxHost.keys.map((key) => key.kid)).to.deep.equal([sandbox.record.kid]);
      expectEnvelope(await api.call({ path: "/api/v1/keys?environment=staging" }), 400, "invalid_request");
    });

    it("serves the well-known document at the host root and under /api, same keys as /v1/keys", async () => {
      const expected = (await api.call({ path: "/api/v1/keys" })).body as KeysBody;
      for (const path of [
        "/.well-known/service-signing-keys.json",
        "/api/.well-known/service-signing-keys.json",
      ]) {
        const response = await api.call({ path });
        expect(response.status, path).to.equal(200);
        expect((response.body as KeysBody).keys).to.deep.equal(expected.keys);
      }
    });

    it("verifies a decision signed by the active or a retiring key", async () => {
      for (const key of [active, retiring]) {
        const response = await verify(sign(key));
        expect(response.status).to.equal(200);
        expect(response.body).to.include({ valid: true, reason: "ok" });
      }
    });

    it("answers each failure as a result, not an HTTP error", async () => {
      const tampered = { ...sign(active), decision: "block" };
      const unknownKid = { ...sign(active), keyId: "live-20990101-deadbeef" };
      const { signature: _removed, ...unsigned } = sign(active);
      const cases: [unknown, string][] = [
        [tampered, "bad_signature"],
        [sign(revoked), "revoked_key"],
        [unknownKid, "unknown_key"],
        [unsigned, "no_signature"],
        [sign(active, new Date(Date.now() - 6 * MINUTE_MS)), "expired"],
        [sign(active, new Date(Date.now() + 2 * MINUTE_MS)), "not_yet_valid"],
      ];
      for (const [decision, reason] of cases) {
        const response = await verify(decision);
        expect(response.status, reason).to.equal(200);
        expect(response.body, reason).to.include({ valid: false, reason });
      }
    });

    it("judges by the host's environment: a sandbox decision never verifies on the production host", async () => {
      expect((await verify(sign(sandbox), "sandbox.test")).body).to.include({ valid: true });
      expect((await verify(sign(sandbox), "canonical.test")).body).to.include({ valid: true });
      expect((await verify(sign(sandbox), "api.test")).body).to.include({ valid: false });
      expect((await verify(sign(active), "sandbox.test")).body).to.include({ valid: false });
    });

    it("refuses a body that is not a decision object with invalid_request", async () => {
      for (const body of [[sign(active)], '"text"', { signature: 42 }]) {
        expectEnvelope(await verify(body), 400, "invalid_request");
      }
    });
  });

  describe("chains and health", () => {
    before(async () => {
      await insertCheckpoint(api.db.pool, {
        chain: "hardhat",
        family: "evm",
        head: 120,
        indexed: 118,
        indexedAt: new Date(),
      });
      await insertCheckpoint(api.db.pool, {
        chain: "solana",
        family: "solana",
        head: 5000,
        indexed: 4000,
        indexedAt: new Date(Date.now() - 10 * MINUTE_MS),
      });
    });

    it("GET /v1/chains lists every indexed chain with its lag and freshness", async () => {
      const response = await api.call({ path: "/api/v1/chains" });
      expect(response.status).to.equal(200);
      const { chains } = response.body as { chains: { chain: string; status: string; lag: number }[] };
      expect(chains.map(({ chain, status, lag }) => ({ chain, status, lag }))).to.deep.equal([
        { chain: "hardhat", status: "ok", lag: 2 },
        { chain: "solana", status: "stale", lag: 1000 },
      ]);
    });

    it("GET /v1/health reports degraded while a chain's index is stale", async () => {
      const response = await api.call({ path: "/api/v1/health" });
      expect(response.status).to.equal(200);
      expect(response.body).to.nested.include({ status: "degraded", "database.ok": true });
      await api.db.pool.query(
        "UPDATE chain_checkpoints SET indexed_number = head_number, indexed_at = now()",
      );
      expect((await api.call({ path: "/api/v1/health" })).body).to.include({ status: "ok" });
    });

    it("GET /v1/health shows each chain's announced posture and the watchdog's restarts", async () => {
      await api.db.pool.query(
        `INSERT INTO audit_log (actor, action, subject, reason, at) VALUES
           ('watchdog', 'indexer.restarted', 'chain:hardhat', 'stalled', now() - interval '2 days'),
           ('watchdog', 'indexer.restarted', 'chain:hardhat', 'stalled', now() - interval '1 hour'),
           ('ops', 'indexer.other', 'chain:hardhat', 'not a restart', now())`,
      );
      await api.db.pool.query(
        "INSERT INTO chain_postures (chain, state, since, sampled_at) VALUES ('hardhat', 'degraded', now(), now())",
      );
      const { body } = await api.call({ path: "/api/v1/health" });
      const watchdog = (body as { watchdog: Record<string, unknown>[] }).watchdog;
      expect(
        watchdog.map(({ postureSince, lastRestartAt, ...rest }) => ({
          ...rest,
          restarted: lastRestartAt !== null,
        })),
      ).to.deep.equal([
        { chain: "hardhat", posture: "degraded", restartsLast24h: 1, restarted: true },
        { chain: "solana", posture: "healthy", restartsLast24h: 0, restarted: false },
      ]);
    });
  });

  describe("protected identities and wallet reservations (production read model)", () => {
    const now = Date.now();
    const EVM_WALLET = "0x52908400098527886e0f7030069857d2e4169ee7";
    const SOLANA_WALLET = "9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin";
    const ACTIVE = 55;

    before(async () => {
      for (let index = 0; index < ACTIVE; index += 1) {
        await insertReservation(api.db.pool, {
          chain: index % 2 === 0 ? "hardhat" : "solana",
          name: `Token ${String.fromCharCode(65 + (index % 26))}${String.fromCharCode(65 + Math.floor(index / 26))}`,
          ticker: `TK${String.fromCharCode(65 + (index % 26))}`,
          launcher: index % 2 === 0 ? EVM_WALLET : SOLANA_WALLET,
          reservedAt: new Date(now - (index + 1) * MINUTE_MS),
          expiresAt: new Date(now + DAY_MS),
        });
      }
      await insertReservation(api.db.pool, {
        chain: "hardhat",
        name: "Moon Badger",
        ticker: "BADGER",
        launcher: EVM_WALLET,
        reservedAt: new Date(now - 3 * DAY_MS),
        expiresAt: new Date(now - DAY_MS),
      });
    });

    interface Page {
      rows: { identityKey: string; chain: string | null; status: string; source: string; since: string }[];
      nextCursor: string | null;
    }

    async function allPages(query: string): Promise<Page["rows"]> {
      const rows: Page["rows"] = [];
      let cursor: string | null = null;
      do {
        const suffix: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : "";
        const response = await api.call({ path: `/api/v1/protected-identities?${query}${suffix}` });
        expect(response.status, response.text).to.equal(200);
        const page = response.body as Page;
        expect(page.rows.length).to.be.at.most(50);
        rows.push(...page.rows);
        cursor = page.nextCursor;
      } while (cursor !== null);
      return rows;
    }

    it("pages through every active identity newest first, once each, with the default status active", async () => {
      const rows = (await allPages("limit=7")).filter((row) => row.source === "reservation");
      expect(rows).to.have.length(ACTIVE);
      expect(new Set(rows.map((row) => `${row.chain}/${row.identityKey}`)).size).to.equal(ACTIVE);
      expect(rows.every((row) => row.status === "reserved")).to.equal(true);
      const times = rows.map((row) => Date.parse(row.since));
      expect(times).to.deep.equal([...times].sort((a, b) => b - a));
    });

    it("status=all adds expired rows; status=expired lists only them", async () => {
      expect(
        (await allPages("status=all&limit=50")).filter((row) => row.source === "reservation"),
      ).to.have.length(ACTIVE + 1);
      const expired = await allPages("status=expired");
      expect(expired.map((row) => [row.identityKey, row.status])).to.deep.equal([
        ["MOONBADGER::BADGER", "expired"],
      ]);
    });

    it("filters by chain and by a folded query", async () => {
      const hardhat = (await allPages("chain=hardhat&limit=50")).filter(
        (row) => row.source === "reservation",
      );
      expect(hardhat).to.have.length(Math.ceil(ACTIVE / 2));
      expect(hardhat.every((row) => row.chain === "hardhat")).to.equal(true);
      const folded = (await allPages(`q=${encodeURIComponent("t0ken a")}&status=all`)).filter(
        (row) => row.source === "reservation",
      );
      expect(folded.map((row) => row.identityKey).sort()).to.deep.equal([
        "TOKENAA::TKA",
        "TOKENAB::TKA",
        "TOKENAC::TKA",
      ]);
    });

    it("adds locks (protected), guardian blocks (blocked, cleared) and launches (launched) by status", async () => {
      const day = (offset: number) => new Date(now + offset * DAY_MS);
      await insertLock(api.db.pool, {
        identityKey: "IRONWHALE::IRON",
        chain: "hardhat",
        launcher: EVM_WALLET,
        appliedAt: day(-0.5),
        expiresAt: day(60),
      });
      await insertLock(api.db.pool, {
        identityKey: "OLDLOCK::OLD",
        chain: "hardhat",
        launcher: EVM_WALLET,
        appliedAt: day(-9),
        expiresAt: day(-2),
      });
      await insertGuardianAction(api.db.pool, {
        identityKey: "VAMPCOIN::VAMP",
        chain: null,
        kind: "block",
        at: day(-0.4),
      });
      await insertGuardianAction(api.db.pool, {
        identityKey: "CLEARSKY::CLEAR",
        chain: "solana",
        kind: "block",
        at: day(-0.3),
      });
      await insertGuardianAction(api.db.pool, {
        identityKey: "CLEARSKY::CLEAR",
        chain: "solana",
        kind: "clear",
        at: day(-0.2),
      });
      await insertLaunch(api.db.pool, {
        identityKey: "ROCKET::RKT",
        chain: "hardhat",
        launcher: EVM_WALLET,
        reportedAt: day(-0.1),
      });
      const statusOf = (rows: Page["rows"], key: string) =>
        rows.filter((row) => row.identityKey === key).map((row) => row.status);
      const active = await allPages("limit=50");
      expect(statusOf(active, "IRONWHALE::IRON")).to.deep.equal(["protected"]);
      expect(statusOf(active, "VAMPCOIN::VAMP")).to.deep.equal(["blocked"]);
      for (const key of ["OLDLOCK::OLD", "CLEARSKY::CLEAR", "ROCKET::RKT"])
        expect(statusOf(active, key), key).to.deep.equal([]);
      const all = await allPages("status=all&limit=50");
      expect(statusOf(all, "OLDLOCK::OLD")).to.deep.equal(["expired"]);
      expect(statusOf(all, "CLEARSKY::CLEAR")).to.deep.equal(["cleared"]);
      expect(statusOf(all, "ROCKET::RKT")).to.deep.equal(["launched"]);
      const onSolana = await allPages("chain=solana&status=blocked");
      expect(onSolana.map((row) => [row.identityKey, row.chain])).to.deep.equal([["VAMPCOIN::VAMP", null]]);
      // Each single status reads only the sources that can have it, and answers exactly the rows of `all`.
      for (const status of ["reserved", "protected", "blocked", "expired", "launched", "cleared"]) {
        const only = await allPages(`status=${status}&limit=50`);
        expect(
          only.every((row) => row.status === status),
          status,
        ).to.equal(true);
        expect(only.length, status).to.equal(all.filter((row) => row.status === status).length);
      }
    });

    it("refuses limit above 50, a non-number, a foreign cursor and an unknown status", async () => {
      for (const query of [
        "limit=51",
        "limit=0",
        "limit=ten",
        "cursor=bm90LWEtY3Vyc29y",
        "status=pending",
        "limit=5&limit=6",
      ]) {
        expectEnvelope(
          await api.call({ path: `/api/v1/protected-identities?${query}` }),
          400,
          "invalid_request",
        );
      }
    });

    it("GET /v1/reservations: an EVM wallet matches in any case, with a summary", async () => {
      const response = await api.call({
        path: `/api/v1/reservations?wallet=${EVM_WALLET.toUpperCase().replace("0X", "0x")}`,
      });
      expect(response.status).to.equal(200);
      const body = response.body as {
        adapter: string;
        scope: string;
        summary: object;
        records: { status: string }[];
      };
      expect(body).to.include({ adapter: "index", scope: "production" });
      expect(body.summary).to.deep.equal({
        total: Math.ceil(ACTIVE / 2) + 1,
        active: Math.ceil(ACTIVE / 2),
        expired: 1,
      });
      expect(body.records.filter((record) => record.status === "expired")).to.have.length(1);
    });

    it("GET /v1/reservations: a Solana wallet matches exactly", async () => {
      const exact = (await api.call({ path: `/api/v1/reservations?wallet=${SOLANA_WALLET}` })).body as {
        records: unknown[];
      };
      expect(exact.records).to.have.length(Math.floor(ACTIVE / 2));
      const otherCase = (
        await api.call({ path: `/api/v1/reservations?wallet=${SOLANA_WALLET.toLowerCase()}` })
      ).body as {
        records: unknown[];
      };
      expect(otherCase.records).to.have.length(0);
    });

    it("GET /v1/reservations: wallet_required and invalid_wallet", async () => {
      expectEnvelope(await api.call({ path: "/api/v1/reservations" }), 400, "wallet_required");
      expectEnvelope(await api.call({ path: "/api/v1/reservations?wallet=" }), 400, "wallet_required");
      for (const wallet of ["ab", "abc*", "a".repeat(65), "0x12%2534", "abc&wallet=def", "%E2%80%8Babc"]) {
        expectEnvelope(
          await api.call({ path: `/api/v1/reservations?wallet=${wallet}` }),
          400,
          "invalid_wallet",
        );
      }
    });
  });

  describe("OpenAPI document", () => {
    it("validates as OpenAPI 3.1 with a standard validator and has a date-form info.version", async () => {
      const response = await api.call({ path: "/api/v1/openapi" });
      expect(response.status).to.equal(200);
      const document = response.body as {
        openapi: string;
        info: { version: string };
        paths: Record<string, object>;
      };
      const result = await new Validator().validate(
        document as unknown as Parameters<Validator["validate"]>[0],
      );
      expect(result.valid, JSON.stringify(result.errors, null, 2)?.slice(0, 2000)).to.equal(true);
      expect(document.openapi).to.equal("3.1.0");
      expect(document.info.version).to.match(/^\d{4}-\d{2}-\d{2}$/);
      for (const path of Object.keys(document.paths)) expect(path).to.match(/^\/(v1\/|\.well-known\/)/);
      expect(document.paths).to.include.keys(
        "/v1/protected-identities",
        "/v1/reservations",
        "/v1/keys",
        "/v1/decisions/verify",
      );
    });
  });
});
