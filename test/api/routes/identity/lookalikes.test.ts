// Look-alike advisories over real HTTP (docs/lookalikes.md): the identity check's lookalikeOf and warning,
// validation's unsigned advisories beside an unchanged signed decision, and look-alike rows of
// GET /v1/protected-identities?q=.
import { expect } from "chai";
import { SANDBOX_DESIGNATED_LAUNCHER } from "../../../../core/status";
import { bearer, issueKey, startTestApi, type TestApi } from "../../support/harness";
import {
  CHAINS,
  EVM_OTHER,
  EVM_OWNER,
  independentlyVerified,
  mirrorReservation,
  publishedKeys,
  setCheckpoints,
} from "./support";

const PRODUCTION_HOST = "api.test";
const SANDBOX_HOST = "sandbox.test";

interface Check {
  identityKey: string;
  status: string;
  decision: string;
  message: string;
  lookalikeOf?: { identityKey: string; status: string; chain: string };
}

describe("api: look-alike advisories", () => {
  let api: TestApi;
  let live: { secret: string; partnerId: string };

  before(async () => {
    api = await startTestApi({ deps: { decisions: { chains: CHAINS } } });
    await setCheckpoints(api.db.pool);
    live = await issueKey(api, "production", { scopes: ["launch:validate"], rateLimitPerMinute: 2000 });
    const reserve = (chain: string, name: string, ticker: string, expiresInSeconds = 3600) =>
      mirrorReservation(api.db.pool, { chain, name, ticker, launcher: EVM_OWNER, expiresInSeconds });
    await reserve("hardhat", "Pepe", "PEPE");
    await reserve("hardhat", "Pepe Coin", "PEPE");
    await reserve("hardhat", "Moon Badger", "BADGER");
    await reserve("hardhat", "Pixel", "PIX");
    await reserve("solana", "Whale", "WHL");
    await reserve("hardhat", "Old Doge", "ODOGE", -60); // lapsed: protects nothing
    await api.db.pool.query(
      `INSERT INTO identity_locks (environment, identity_key, chain, kind, was_reserved, authorized_launcher,
         applied_at, expires_at)
       VALUES ('production', 'MOONCAT::MCAT', 'hardhat', 'bonded', true, $1, now(), now() + interval '60 days'),
              ('sandbox', 'SANDCAT::SCAT', 'hardhat', 'bonded', true, $1, now(), now() + interval '60 days')`,
      [EVM_OWNER.toLowerCase()],
    );
  });
  after(async () => api.close());

  const check = async (name: string, ticker: string, extra = "", host = PRODUCTION_HOST): Promise<Check> => {
    const response = await api.call({
      path: `/api/v1/identity/check?name=${encodeURIComponent(name)}&ticker=${encodeURIComponent(ticker)}${extra}`,
      host,
    });
    expect(response.status, response.text).to.equal(200);
    return response.body as Check;
  };

  describe("GET /v1/identity/check", () => {
    const COPIES: [string, string, string, { identityKey: string; status: string; chain: string }][] = [
      ["Cyrillic е", "pеpе", "PEPE", { identityKey: "PEPE::PEPE", status: "reserved", chain: "hardhat" }],
      [
        "Greek in a name",
        "ΡΕΡΕ coin",
        "PEPE",
        { identityKey: "PEPECOIN::PEPE", status: "reserved", chain: "hardhat" },
      ],
      [
        "full-width",
        "Moon ＢａｄｇｅＲ",
        "BADGEＲ",
        { identityKey: "MOONBADGER::BADGER", status: "reserved", chain: "hardhat" },
      ],
      [
        "mathematical bold",
        "𝐌𝐨𝐨𝐧 Badger",
        "BADGER",
        { identityKey: "MOONBADGER::BADGER", status: "reserved", chain: "hardhat" },
      ],
      [
        "mixed Latin, Greek and Cyrillic",
        "Mοοn Bаdgеr",
        "BADGER",
        { identityKey: "MOONBADGER::BADGER", status: "reserved", chain: "hardhat" },
      ],
      [
        "rn for m (a lock)",
        "rnoon cat",
        "RNCAT",
        { identityKey: "MOONCAT::MCAT", status: "protected", chain: "hardhat" },
      ],
      [
        "vv for w (any chain)",
        "vvhale",
        "VVHL",
        { identityKey: "WHALE::WHL", status: "reserved", chain: "solana" },
      ],
      ["l for I", "PlXEL", "PlX", { identityKey: "PIXEL::PIX", status: "reserved", chain: "hardhat" }],
      [
        "lowercase Cyrillic м and в, whose prototypes are small capitals",
        "мооn вadgеr",
        "BADGER",
        { identityKey: "MOONBADGER::BADGER", status: "reserved", chain: "hardhat" },
      ],
    ];
    for (const [what, name, ticker, lookalikeOf] of COPIES) {
      it(`${what}: ${name} / ${ticker} is flagged as a look-alike of ${lookalikeOf.identityKey}`, async () => {
        const answer = await check(name, ticker, "&chain=hardhat");
        expect(answer.identityKey).to.not.equal(lookalikeOf.identityKey);
        expect(answer.lookalikeOf).to.deep.equal(lookalikeOf);
        expect(answer.message).to.include(`Warning: this name looks like ${lookalikeOf.identityKey}`);
        // Advisory only: the copy's own status is its own.
        expect(answer).to.include({ status: "available", decision: "allow" });
      });
    }

    const NOT_FLAGGED: [string, string, string][] = [
      ["the protected name itself", "Pepe", "PEPE"],
      ["a plain distinct name", "Pepa", "PEPA"],
      ["a Cyrillic name in its own script", "Привет Мир 1", "МИР11"],
      ["a Greek name in its own script", "Αθήνα Coin", "ATH"],
      ["a look-alike of a lapsed reservation", "Old cloge", "ODOGE"],
      ["a look-alike of a sandbox lock, asked in production", "Sand Cat", "SCAT"],
    ];
    for (const [what, name, ticker] of NOT_FLAGGED) {
      it(`not flagged: ${what} (${name} / ${ticker})`, async () => {
        const answer = await check(name, ticker);
        expect(answer).to.not.have.property("lookalikeOf");
        expect(answer.message).to.not.include("Warning");
      });
    }

    it("finds a live look-alike written after more lapsed ones than the read's bound (16)", async () => {
      // Names of L and I only: distinct identities with one look-alike key (IIIII::III).
      const variants = Array.from({ length: 32 }, (_, n) =>
        [...n.toString(2).padStart(5, "0")].map((bit) => (bit === "1" ? "L" : "I")).join(""),
      );
      const [asked, live, ...lapsed] = variants as [string, string, ...string[]];
      // The live one last: read in the order written, the first 16 would all be lapsed.
      for (const name of lapsed.slice(0, 20))
        await mirrorReservation(api.db.pool, {
          chain: "hardhat",
          name,
          ticker: "LIL",
          launcher: EVM_OWNER,
          expiresInSeconds: -60,
        });
      await mirrorReservation(api.db.pool, {
        chain: "hardhat",
        name: live,
        ticker: "LIL",
        launcher: EVM_OWNER,
        expiresInSeconds: 600,
      });
      const answer = await check(asked, "LIL", "&chain=hardhat");
      expect(answer.lookalikeOf).to.deep.equal({
        identityKey: `${live}::LIL`,
        status: "reserved",
        chain: "hardhat",
      });
    });

    it("Greek capitals that fold to nothing: the 400 refusal names the protected identity they copy", async () => {
      const response = await api.call({
        path: `/api/v1/identity/check?name=${encodeURIComponent("ΡΕΡΕ")}&ticker=PEPE`,
        host: PRODUCTION_HOST,
      });
      expect(response.status, response.text).to.equal(400);
      const error = (
        response.body as { error: { code: string; message: string; details: Record<string, unknown> } }
      ).error;
      expect(error.code).to.equal("invalid_request");
      expect(error.details).to.include({ reason: "name_empty" });
      expect(error.details.lookalikeOf).to.deep.equal({
        identityKey: "PEPE::PEPE",
        status: "reserved",
        chain: "hardhat",
      });
      expect(error.message).to.include("Warning: this name looks like PEPE::PEPE");
      const plain = await api.call({
        path: "/api/v1/identity/check?name=%CE%B1&ticker=ZZZ",
        host: PRODUCTION_HOST,
      });
      expect(plain.status).to.equal(400);
      expect((plain.body as { error: { details: object } }).error.details).to.not.have.property(
        "lookalikeOf",
      );
    });

    it("the protected identity itself still answers its own status, with no advisory", async () => {
      const answer = await check("Pepe", "PEPE", "&chain=hardhat");
      expect(answer).to.include({ identityKey: "PEPE::PEPE", status: "reserved" });
      expect(answer).to.not.have.property("lookalikeOf");
    });

    it("the sandbox host flags look-alikes of the seeded scenarios (SАNDBOXFOX with a Cyrillic А)", async () => {
      const answer = await check("SАNDBOXFOX", "SFOX", "&chain=hardhat", SANDBOX_HOST);
      expect(answer.lookalikeOf).to.deep.equal({
        identityKey: "SANDBOXFOX::SFOX",
        status: "reserved",
        chain: "hardhat",
      });
      expect((await check("SandboxFox", "SFOX", "&chain=hardhat", SANDBOX_HOST)).lookalikeOf).to.equal(
        undefined,
      );
    });

    it("the sandbox flags look-alikes of the asking partner's own holds and locks, never another partner's", async () => {
      const mine = await issueKey(api, "sandbox", { scopes: ["launch:validate"] });
      const theirs = await issueKey(api, "sandbox", { scopes: ["launch:validate"] });
      const hold = (identityKey: string, partnerId: string) =>
        api.db.pool.query(
          `INSERT INTO sandbox_holds (identity_key, chain, launcher, starts_at, expires_at, duration_seconds, partner_id, source)
           VALUES ($1, 'hardhat', $2, now(), now() + interval '1 day', 86400, $3, 'partner')`,
          [identityKey, EVM_OWNER.toLowerCase(), partnerId],
        );
      await hold("LOBSTER::LOB", mine.partnerId);
      await hold("OYSTER::OYS", theirs.partnerId);
      await api.db.pool.query(
        `INSERT INTO identity_locks (environment, identity_key, chain, kind, was_reserved, authorized_launcher,
           applied_at, expires_at, partner_id)
         VALUES ('sandbox', 'CRABBY::CRAB', 'hardhat', 'bonded', true, $1, now(), now() + interval '60 days', $2),
                ('sandbox', 'SHRIMPY::SHRIMP', 'hardhat', 'bonded', true, $1, now(), now() + interval '60 days', $3)`,
        [EVM_OWNER.toLowerCase(), mine.partnerId, theirs.partnerId],
      );
      const checkAs = async (secret: string, name: string, ticker: string) => {
        const response = await api.call({
          path: `/api/v1/identity/check?name=${encodeURIComponent(name)}&ticker=${ticker}&chain=hardhat`,
          host: SANDBOX_HOST,
          headers: bearer(secret),
        });
        expect(response.status, response.text).to.equal(200);
        return (response.body as Check).lookalikeOf;
      };
      // Cyrillic о and е in each copy.
      expect(await checkAs(mine.secret, "Lоbster", "LOB")).to.deep.equal({
        identityKey: "LOBSTER::LOB",
        status: "reserved",
        chain: "hardhat",
      });
      expect(await checkAs(mine.secret, "Crаbby", "CRAB")).to.deep.equal({
        identityKey: "CRABBY::CRAB",
        status: "protected",
        chain: "hardhat",
      });
      expect(await checkAs(mine.secret, "Оyster", "OYS")).to.equal(undefined);
      expect(await checkAs(mine.secret, "Shrimpу", "SHRIMP")).to.equal(undefined);
      expect(await checkAs(theirs.secret, "Оyster", "OYS")).to.deep.equal({
        identityKey: "OYSTER::OYS",
        status: "reserved",
        chain: "hardhat",
      });
      // Production reads neither partner's sandbox records.
      expect((await check("Lоbster", "LOB", "&chain=hardhat")).lookalikeOf).to.equal(undefined);
    });
  });

  describe("POST /v1/launches/validate", () => {
    const validate = (body: Record<string, unknown>) =>
      api.call({ method: "POST", path: "/api/v1/launches/validate", headers: bearer(live.secret), body });

    it("answers an unsigned advisory beside a signed decision that is unchanged", async () => {
      const response = await validate({
        chain: "hardhat",
        name: "pеpе",
        ticker: "PEPE",
        launcher: EVM_OTHER,
      });
      expect(response.status, response.text).to.equal(200);
      const body = response.body as Record<string, unknown> & { advisories: Record<string, string>[] };
      expect(body).to.include({ decision: "allow", identityKey: "PP::PEPE" });
      expect(body.advisories).to.have.length(1);
      expect(body.advisories[0]).to.include({
        kind: "lookalike",
        identityKey: "PEPE::PEPE",
        status: "reserved",
        chain: "hardhat",
      });
      expect(body.advisories[0]?.message).to.include("Warning");
      // The signature verifies over the spec's 13 fields: the advisory is not among them.
      const { advisories: _unsigned, ...decision } = body;
      expect(
        independentlyVerified(decision as Record<string, string>, await publishedKeys(api, "production")),
      ).to.equal(true);
      const { rows } = await api.db.pool.query<{ signed: Record<string, unknown> }>(
        "SELECT signed FROM decisions WHERE request_id = $1",
        [body.requestId],
      );
      expect(rows[0]?.signed).to.not.have.property("advisories");
      // The answer as received, advisories included, passes the service's own verifier.
      const verified = await api.call({ method: "POST", path: "/api/v1/decisions/verify", body });
      expect(verified.body).to.include({ valid: true, reason: "ok" });
    });

    it("answers an empty advisories list for a name that looks like nothing protected", async () => {
      const response = await validate({
        chain: "hardhat",
        name: "Quiet Otter",
        ticker: "OTR",
        launcher: EVM_OTHER,
      });
      expect(response.status, response.text).to.equal(200);
      expect((response.body as { advisories: unknown[] }).advisories).to.deep.equal([]);
    });

    it("the holder validating its own identity gets no advisory", async () => {
      const response = await validate({
        chain: "hardhat",
        name: "Pepe",
        ticker: "PEPE",
        launcher: EVM_OWNER,
      });
      expect(response.status, response.text).to.equal(200);
      expect(response.body).to.include({ decision: "allow" });
      expect((response.body as { advisories: unknown[] }).advisories).to.deep.equal([]);
    });
  });

  describe("GET /v1/protected-identities?q=", () => {
    interface Row {
      identityKey: string;
      lookalike: boolean;
    }
    const search = async (q: string): Promise<Row[]> => {
      const response = await api.call({ path: `/api/v1/protected-identities?q=${encodeURIComponent(q)}` });
      expect(response.status, response.text).to.equal(200);
      return (response.body as { rows: Row[] }).rows.map(({ identityKey, lookalike }) => ({
        identityKey,
        lookalike,
      }));
    };

    it("finds a look-alike of the query, marked as such", async () => {
      expect(await search("pеpе")).to.deep.include({ identityKey: "PEPE::PEPE", lookalike: true });
      expect(await search("rnooncat")).to.deep.include({ identityKey: "MOONCAT::MCAT", lookalike: true });
    });

    it("a query that folds to nothing (Greek capitals) finds its look-alikes only", async () => {
      expect(await search("ΡΕΡΕ")).to.have.deep.members([
        { identityKey: "PEPE::PEPE", lookalike: true },
        { identityKey: "PEPECOIN::PEPE", lookalike: true },
      ]);
    });

    it("a plain query matches by key, not marked", async () => {
      expect(await search("pepe")).to.deep.include({ identityKey: "PEPE::PEPE", lookalike: false });
      expect((await search("moonbadger")).every((row) => !row.lookalike)).to.equal(true);
    });
  });

  it("keeps the designated sandbox launcher's own scenario free of advisories", async () => {
    const answer = await check(
      "SandboxFox",
      "SFOX",
      `&chain=hardhat&launcher=${SANDBOX_DESIGNATED_LAUNCHER.evm}`,
      SANDBOX_HOST,
    );
    expect(answer).to.include({ status: "authorized" });
    expect(answer).to.not.have.property("lookalikeOf");
  });
});
