// The public web pages over HTTP, without a browser: what each page shows is what the public endpoint answers on
// the same host, the query is validated by the endpoint's schema, refusals are 4xx pages, pages count as keyless
// calls, and the headers (CSP, caching) are the documented ones. The browser tests are test/web/.
import { expect } from "chai";
import { createApp } from "../../../api/app";
import { listen, type RunningServer } from "../../../api/server";
import { LOOKUP_SCRIPT_PATH, PAGE_CONTENT_SECURITY_POLICY } from "../../../api/web/assets";
import type { RegistryClient } from "../../../chains/registryClient";
import { silentLogger } from "../../../telemetry/log";
import { bearer, issueKey, startTestApi, TEST_HOSTS, type TestApi } from "../support/harness";
import { send } from "../support/http";
import { insertCheckpoint, insertReservation } from "../support/readModelRows";

const DAY_MS = 86_400_000;
const WALLET = "0x52908400098527886e0f7030069857d2e4169ee7";
const SANDBOX_HOST = TEST_HOSTS.sandbox[0];

/** The text of the element carrying `data-field="<name>"`, tags removed. */
function field(page: string, name: string): string | undefined {
  const match = new RegExp(`data-field="${name}">([\\s\\S]*?)</dd>`).exec(page);
  return match?.[1]
    ?.replace(/<[^>]+>/g, "")
    .replace(/\s+/g, " ")
    .trim();
}

describe("api: public web pages over HTTP", () => {
  let api: TestApi;
  const now = Date.now();

  before(async () => {
    api = await startTestApi();
    for (const [chain, family] of [
      ["hardhat", "evm"],
      ["solana", "solana"],
    ] as const) {
      await insertCheckpoint(api.db.pool, { chain, family, head: 100, indexed: 100, indexedAt: new Date() });
    }
    for (let index = 0; index < 3; index += 1) {
      await insertReservation(api.db.pool, {
        chain: "hardhat",
        name: `Web Page ${"ABC"[index]}`,
        ticker: `WEB${"ABC"[index]}`,
        launcher: WALLET,
        reservedAt: new Date(now - (index + 1) * 60_000),
        expiresAt: new Date(now + DAY_MS),
      });
    }
  });
  after(async () => api.close());

  it("`/` is the check form: HTML under the page CSP, inputs named like the API's query, chains from /v1/chains", async () => {
    const response = await api.call({ path: "/" });
    expect(response.status).to.equal(200);
    expect(response.headers["content-type"]).to.equal("text/html; charset=utf-8");
    expect(response.headers["content-security-policy"]).to.equal(PAGE_CONTENT_SECURITY_POLICY);
    expect(PAGE_CONTENT_SECURITY_POLICY).to.match(
      /^default-src 'none'; script-src 'self'; style-src 'sha256-/,
    );
    for (const name of ["name", "ticker", "chain", "launcher"]) {
      expect(response.text).to.match(new RegExp(`<label for="${name}">`));
      expect(response.text).to.include(`id="${name}" name="${name}"`);
    }
    expect(response.text).to.include('<form id="lookup" method="get" action="/"');
    expect(response.text).to.include('<option value="hardhat">hardhat</option>');
    expect(response.text).to.match(
      /data-chain="solana"><strong>solana<\/strong> fresh, indexed \d+ s ago, 0 slots behind</,
    );
    expect(response.text).to.include(`<script src="${LOOKUP_SCRIPT_PATH}" defer></script>`);
    expect(response.text, "no inline script").to.not.match(/<script(?![^>]*\bsrc=)/);
    expect(response.text).to.not.include('data-environment="sandbox"');
    expect(response.text).to.not.include('id="result"');
  });

  it("a Cyrillic copy of a reserved pair shows the look-alike warning the API answers, linked to the original", async () => {
    const query = `name=${encodeURIComponent("W\u0435b Pag\u0435 A")}&ticker=weba&chain=hardhat`;
    const answer = (await api.call({ path: `/api/v1/identity/check?${query}` })).body as {
      lookalikeOf?: { identityKey: string };
    };
    expect(answer.lookalikeOf?.identityKey).to.equal("WEBPAGEA::WEBA");
    const page = await api.call({ path: `/?${query}` });
    expect(page.status, page.text).to.equal(200);
    expect(page.text).to.match(
      /id="lookalike"[^>]*>Looks like <a href="\/\?name=WEBPAGEA&amp;ticker=WEBA"><code>WEBPAGEA::WEBA<\/code><\/a>, reserved on hardhat/,
    );
    const plain = await api.call({ path: "/?name=web+page+a&ticker=weba&chain=hardhat" });
    expect(plain.text, "the original itself is no look-alike").to.not.include('id="lookalike"');
  });

  it("a submitted check shows the API's answer on the same host: status, decision, protected until, launcher, freshness", async () => {
    const query = "name=web+page+a&ticker=weba&chain=hardhat";
    const page = await api.call({ path: `/?${query}` });
    const answer = (await api.call({ path: `/api/v1/identity/check?${query}` })).body as Record<
      string,
      string
    >;
    expect(page.status, page.text).to.equal(200);
    expect(answer.status).to.equal("reserved");
    expect(page.text).to.include(
      `<code>WEBPAGEA::WEBA</code> is <span class="badge held" data-status="reserved">`,
    );
    expect(field(page.text, "status")).to.equal("reserved");
    expect(field(page.text, "decision")).to.equal(answer.decision);
    expect(page.text).to.include(`Held: only the authorized launcher may launch it.`);
    expect(field(page.text, "chain")).to.equal("hardhat");
    expect(page.text).to.include(`<time datetime="${answer.protectedUntil}" data-local>`);
    expect(field(page.text, "protectedUntil")).to.match(
      /^\d{4}-\d\d-\d\d \d\d:\d\d UTC \(in (23|24) hours\)$/,
    );
    expect(field(page.text, "authorizedLauncher")).to.equal(answer.authorizedLauncher);
    expect(field(page.text, "dataAsOf")).to.match(/UTC \(.+\), read from the index$/);
    expect(page.text).to.include('<a href="/identity?key=WEBPAGEA%3A%3AWEBA">Timeline of WEBPAGEA::WEBA</a>');
    expect(page.text).to.include('value="web page a"');
    expect(page.text).to.include('<option value="hardhat" selected>');
  });

  it("a launcher is judged as the API judges it; empty optional fields are left out as the API omits them", async () => {
    const mine = await api.call({
      path: `/?name=Web+Page+B&ticker=WEBB&chain=&launcher=${WALLET.toUpperCase().replace("0X", "0x")}`,
    });
    expect(mine.status, mine.text).to.equal(200);
    expect(field(mine.text, "launcherAuthorized")).to.equal("authorized for this identity");
    const other = await api.call({ path: `/?name=Web+Page+B&ticker=WEBB&launcher=0x${"11".repeat(20)}` });
    expect(field(other.text, "launcherAuthorized")).to.equal("not the authorized launcher");
    expect(field(other.text, "decision")).to.equal("block");
  });

  it("refused input is a 400 page with the API's own message, the form kept; markup in input is escaped", async () => {
    const hostile = '"><script>alert(1)</script>';
    const page = await api.call({ path: `/?name=${encodeURIComponent(hostile)}&ticker=` });
    const answer = await api.call({ path: `/api/v1/identity/check?name=${encodeURIComponent(hostile)}` });
    expect(page.status).to.equal(400);
    expect(answer.status).to.equal(400);
    const message = (answer.body as { error: { message: string } }).error.message;
    expect(page.text).to.include(
      `<p class="problem" role="alert" id="problem">${message.replace(/`/g, "&#96;")}`.slice(0, 60),
    );
    expect(page.text).to.not.include("<script>alert");
    expect(page.text).to.include('value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"');
    const repeated = await api.call({ path: "/?name=a&name=b&ticker=AB" });
    expect(repeated.status).to.equal(400);
    expect((await api.call({ path: "/api/v1/identity/check?name=a&name=b&ticker=AB" })).status).to.equal(400);
    const folds = await api.call({ path: "/?name=%C3%A9%C3%A9&ticker=AB" });
    expect(folds.status).to.equal(400);
    expect(folds.text).to.include("name has no letters or digits left");
  });

  it("the sandbox host is labelled, answers from sandbox data and lists the seeded scenarios", async () => {
    const sandbox = await api.call({ path: "/?name=SandboxFox&ticker=SFOX", host: SANDBOX_HOST });
    expect(sandbox.status, sandbox.text).to.equal(200);
    expect(sandbox.text).to.include('data-environment="sandbox"');
    expect(sandbox.text).to.include("<title>SANDBOXFOX::SFOX: reserved (sandbox)");
    expect(field(sandbox.text, "status")).to.equal("reserved");
    expect(sandbox.text).to.include(
      '<a href="/?name=MOONBADGER&amp;ticker=BADGER"><code>MOONBADGER::BADGER</code></a>',
    );
    const production = await api.call({ path: "/?name=SandboxFox&ticker=SFOX" });
    expect(field(production.text, "status")).to.equal("available");
    expect(production.text).to.not.include("Seeded sandbox scenarios");
  });

  it("`/identity` shows GET /v1/identity/status: the answer per chain and the timeline; unknown and bad keys are 404 and 400 pages", async () => {
    const page = await api.call({ path: "/identity?key=WEBPAGEC%3A%3AWEBC" });
    expect(page.status, page.text).to.equal(200);
    expect(page.text).to.include("<h1>Timeline of <code>WEBPAGEC::WEBC</code></h1>");
    expect(page.text).to.match(
      /<th scope="row">hardhat<\/th><td><span class="badge held" data-status="reserved">/,
    );
    expect(page.text).to.match(/<li><strong>Reserved<\/strong> on hardhat, /);
    const unknown = await api.call({ path: "/identity?key=NOBODY%3A%3ANONE" });
    expect(unknown.status).to.equal(404);
    expect(unknown.text).to.include("<h1>No record of <code>NOBODY::NONE</code></h1>");
    expect(unknown.text).to.include('<a href="/?name=NOBODY&amp;ticker=NONE">Check NOBODY::NONE</a>');
    expect((await api.call({ path: "/identity?key=lower%3A%3Acase" })).status).to.equal(400);
    expect((await api.call({ path: "/identity" })).status).to.equal(400);
  });

  it("`/protected` lists what GET /v1/protected-identities answers, with its filters and cursor paging", async () => {
    const first = await api.call({ path: "/protected?q=web+page&limit=2" });
    const answer = (await api.call({ path: "/api/v1/protected-identities?q=web+page&limit=2" })).body as {
      rows: { identityKey: string }[];
      nextCursor: string;
    };
    expect(first.status, first.text).to.equal(200);
    const keys = (text: string) =>
      [...text.matchAll(/<th scope="row"><a href="[^"]+"><code>([^<]+)<\/code>/g)].map((m) => m[1]);
    expect(keys(first.text)).to.deep.equal(answer.rows.map((row) => row.identityKey));
    expect(keys(first.text)).to.deep.equal(["WEBPAGEA::WEBA", "WEBPAGEB::WEBB"]);
    const next = /<a href="([^"]+)" rel="next">/.exec(first.text)?.[1]?.replace(/&amp;/g, "&");
    expect(next).to.equal(`/protected?q=web+page&limit=2&cursor=${answer.nextCursor}`);
    const second = await api.call({ path: next as string });
    expect(keys(second.text)).to.deep.equal(["WEBPAGEC::WEBC"]);
    expect(second.text).to.not.include('rel="next"');
    expect(second.text).to.include('<a href="/protected?q=web+page&amp;limit=2">First page</a>');
    const none = await api.call({ path: "/protected?chain=solana&q=web" });
    expect(none.text).to.include("No identity matches these filters.");
    const bad = await api.call({ path: "/protected?cursor=nonsense" });
    expect(bad.status).to.equal(400);
    expect(bad.text).to.include("is not a cursor this API issued");
    expect((await api.call({ path: "/protected?status=sleeping" })).status).to.equal(400);
  });

  it("the longest list page (50 rows of 64-character names) stays within the 100 KB page budget", async () => {
    for (let index = 0; index < 50; index += 1) {
      await insertReservation(api.db.pool, {
        chain: "solana",
        name: `${"LONGNAME".repeat(7)}${String.fromCharCode(65 + (index % 26))}${String.fromCharCode(65 + Math.floor(index / 26))}`.slice(
          -64,
        ),
        ticker: `LONGTICKR${String.fromCharCode(65 + (index % 26))}`,
        launcher: "9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin",
        reservedAt: new Date(now - 10 * DAY_MS + index * 1000),
        expiresAt: new Date(now + DAY_MS),
      });
    }
    const page = await api.call({ path: "/protected?limit=50&q=longname" });
    expect(page.status).to.equal(200);
    expect(page.text.match(/<th scope="row">/g)).to.have.length(50);
    const bytes = Buffer.byteLength(page.text) + (await api.call({ path: LOOKUP_SCRIPT_PATH })).text.length;
    expect(bytes, `${bytes} bytes`).to.be.below(100 * 1024);
  });

  it("the lookup script is served from its content-addressed path, cached immutably; other paths are not pages", async () => {
    const script = await api.call({ path: LOOKUP_SCRIPT_PATH });
    expect(script.status).to.equal(200);
    expect(script.headers["content-type"]).to.equal("text/javascript; charset=utf-8");
    expect(script.headers["cache-control"]).to.equal("public, max-age=31536000, immutable");
    expect((await api.call({ path: "/assets/lookup.js" })).status).to.equal(404);
    expect((await api.call({ path: "/favicon.ico" })).status).to.equal(404);
  });

  describe("keyless rate limits", () => {
    let limited: RunningServer;
    before(async () => {
      limited = await listen(
        createApp({
          pool: api.db.pool,
          startedAt: new Date(),
          log: silentLogger(),
          hosts: TEST_HOSTS,
          keylessRateLimitPerMinute: 3,
          decisions: { chains: [] },
        }),
        "127.0.0.1",
        0,
      );
    });
    after(async () => limited.close());

    it("pages count as keyless calls of the client address, a partner key sent along is not used, past the limit a 429 page", async () => {
      const key = await issueKey(api, "production");
      // A revoked or unknown key would be 401 on the API; the page ignores keys entirely.
      const pages = ["/", "/protected", "/?name=a&ticker=bb"];
      for (const [index, path] of pages.entries()) {
        const response = await send(limited.url, {
          path,
          headers: bearer(index === 0 ? key.secret : "svc_live_not_a_key"),
        });
        expect(response.status, response.text).to.be.oneOf([200, 400]);
        expect(response.headers["ratelimit-remaining"]).to.equal(String(2 - index));
      }
      const refused = await send(limited.url, { path: "/" });
      expect(refused.status).to.equal(429);
      expect(refused.headers["content-type"]).to.equal("text/html; charset=utf-8");
      expect(refused.text).to.include('role="alert"');
      // The API's keyless checks share the same count.
      expect((await send(limited.url, { path: "/api/v1/identity/check?name=a&ticker=bb" })).status).to.equal(
        429,
      );
      // The key itself was never counted: its holder still has its whole minute.
      const keyed = await send(limited.url, {
        path: "/api/v1/identity/check?name=a&ticker=bb",
        headers: bearer(key.secret),
      });
      expect(keyed.status).to.equal(200);
      expect(keyed.headers["ratelimit-remaining"]).to.equal("299");
    });
  });
});

/** A production registry that is read (on-chain first) and holds no record; nothing else of it is used here. */
function emptyRegistry(chain: string): RegistryClient {
  const unused = async (): Promise<never> => {
    throw new Error(`not used by the chain strip test (${chain})`);
  };
  return {
    chain,
    family: "evm",
    simulated: false,
    guardTarget: null,
    quote: unused,
    reservationOf: async () => null,
    activeReservationCount: unused,
    prepareTransaction: unused,
    commitmentOf: unused,
    stepOf: unused,
    transactionOutcome: unused,
    settlementOf: unused,
    isTransactionHash: () => true,
  };
}

describe("api: the chain strip of chains whose mirror is behind", () => {
  let api: TestApi;
  /** The strip's words of `chain` on `host`'s page, before its figures (the apostrophe unescaped). */
  const stripOf = async (chain: string, host?: string) => {
    const page = await api.call({ path: "/", ...(host === undefined ? {} : { host }) });
    const words = new RegExp(`data-chain="${chain}"><strong>${chain}</strong> ([^<]*?), indexed`).exec(
      page.text,
    );
    return words?.[1]?.replaceAll("&#39;", "'");
  };
  /** What the identity check answers on `chain`, with the data path that answered. */
  const checkOn = async (chain: string) =>
    (await api.call({ path: `/api/v1/identity/check?name=Strip+Test&ticker=STRIP&chain=${chain}` })).body as {
      decision: string;
      adapter: string;
    };

  before(async () => {
    // Both mirrors are ten minutes behind; only hardhat's registry is read meanwhile (solana has none here).
    api = await startTestApi({
      deps: {
        registries: { production: new Map([["hardhat", emptyRegistry("hardhat")]]), sandbox: new Map() },
      },
    });
    for (const [chain, family] of [
      ["hardhat", "evm"],
      ["solana", "solana"],
    ] as const) {
      await insertCheckpoint(api.db.pool, {
        chain,
        family,
        head: 105,
        indexed: 100,
        indexedAt: new Date(Date.now() - 10 * 60_000),
      });
    }
  });
  after(async () => api.close());

  it("says answers are read from the registry where the check reads it, and recheck only where it says so", async () => {
    expect(await checkOn("hardhat")).to.include({ adapter: "chain" });
    expect(await stripOf("hardhat")).to.equal("behind, answers read from the chain's registry");
    expect(await checkOn("solana")).to.include({ decision: "recheck_required", adapter: "unavailable" });
    expect(await stripOf("solana")).to.equal("behind, answers say recheck");
  });

  it("claims nothing about answers on the sandbox host, whose answers come from sandbox data", async () => {
    expect(await stripOf("hardhat", SANDBOX_HOST)).to.equal("behind");
    expect(await stripOf("solana", SANDBOX_HOST)).to.equal("behind");
  });
});
