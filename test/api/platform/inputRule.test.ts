// The input rule of every route (api/platform/inputRule.ts): text Postgres cannot store (NUL, lone UTF-16
// surrogates) anywhere in the body, query or headers, and bodies nested deeper than MAX_NESTING_DEPTH, get a
// 400 naming where, at parse time, on every route alike. Before the rule, the
// event, sandbox-key and protected-identities cases and the deep bodies answered 500 internal_error (Postgres
// encoding errors, a stack overflow); the other cases were let through or refused by one route's own check.
// Headers: Node's parser refuses control bytes itself, unless run with --insecure-http-parser.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect } from "chai";
import { createApp } from "../../../api/app";
import { MAX_NESTING_DEPTH } from "../../../api/platform/inputRule";
import { silentLogger } from "../../../telemetry/log";
import { createTestDatabase, type TestDatabase } from "../../support/testDatabase";
import { CHAINS, EVM_OTHER, setCheckpoints } from "../routes/identity/support";
import { bearer, expectEnvelope, issueKey, startTestApi, TEST_HOSTS, type TestApi } from "../support/harness";
import type { HttpResponse } from "../support/http";
import { sendRaw } from "../support/rawHttp";

const VALIDATE = "/api/v1/launches/validate";
const PREPARE = "/api/v1/reservations/prepare";
const GOOD = { chain: "hardhat", name: "Rule Coin", ticker: "RULE", launcher: EVM_OTHER };
const EVENT = {
  chain: "hardhat",
  launchpad: "pad-one",
  name: "Rule Coin",
  ticker: "RULE",
  wasReserved: false,
};

interface Issue {
  path: string;
  message: string;
}

/** The 400 of the input rule: where it was, which path, and a message naming both. */
function expectRefusal(response: HttpResponse, where: "body" | "query" | "header", path: string): Issue {
  expectEnvelope(response, 400, "invalid_request");
  const details = (response.body as { error: { message: string; details: { in: string; issues: Issue[] } } })
    .error;
  expect(details.details.in, response.text).to.equal(where);
  expect(details.details.issues).to.have.length(1);
  const issue = details.details.issues[0] as Issue;
  expect(issue.path, response.text).to.equal(path);
  expect(details.message).to.contain(path);
  return issue;
}

/** `depth` objects nested in each other, as JSON text (JSON.stringify itself overflows on 10,000). */
function nested(depth: number): string {
  return `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
}

/** A JSON body: `fields`, plus `extra` holding `extraJson` as written. */
function withExtra(fields: object, extraJson: string): string {
  return `${JSON.stringify(fields).slice(0, -1)},"extra":${extraJson}}`;
}

describe("api: the input rule (text the database can store, bounded nesting) on every route", () => {
  let api: TestApi;
  let live: Record<string, string>;
  let sandbox: Record<string, string>;

  before(async () => {
    api = await startTestApi({ deps: { decisions: { chains: CHAINS } } });
    await setCheckpoints(api.db.pool);
    live = bearer((await issueKey(api, "production", { rateLimitPerMinute: 2000 })).secret);
    sandbox = bearer((await issueKey(api, "sandbox")).secret);
  });
  after(async () => api.close());

  describe("NUL and lone surrogates", () => {
    it("in a body field of an Express route: 400 naming the field, not the database's 500", async () => {
      const nul = await api.call({
        method: "POST",
        path: "/api/v1/events/bonded",
        headers: sandbox,
        body: { ...EVENT, launchpad: "pad\u0000one" },
      });
      expect(expectRefusal(nul, "body", "launchpad").message).to.match(/NUL.*remove it/);
      const surrogate = await api.call({
        method: "POST",
        path: "/api/v1/events/milestone",
        headers: sandbox,
        body: { ...EVENT, chain: "hard\ud800hat" },
      });
      expect(expectRefusal(surrogate, "body", "chain").message).to.match(/unpaired UTF-16 surrogate/);
      const organization = await api.call({
        method: "POST",
        path: "/api/v1/sandbox/keys",
        host: TEST_HOSTS.sandbox[0],
        body: { organization: "Rule\u0000 Ltd", email: "ops@rule.test" },
      });
      expectRefusal(organization, "body", "organization");
    });

    it("in the direct validation route: the same rule, before the key is checked", async () => {
      for (const headers of [live, {}]) {
        const response = await api.call({
          method: "POST",
          path: VALIDATE,
          headers,
          body: { ...GOOD, launchpad: "pad\udc00" },
        });
        expectRefusal(response, "body", "launchpad");
      }
    });

    it("in a key or a value at any depth of an unknown field", async () => {
      const key = await api.call({
        method: "POST",
        path: VALIDATE,
        headers: live,
        body: { ...GOOD, extra: { list: [1, { "k\u0000": true }] } },
      });
      expectRefusal(key, "body", "extra.list.1.k\\u0000");
      const value = await api.call({
        method: "POST",
        path: "/api/v1/identity/check",
        body: { name: "Rule Coin", ticker: "RULE", extra: ["ok", "\ud83d"] },
      });
      expectRefusal(value, "body", "extra.1");
    });

    it("written raw: a NUL byte is not JSON, and a lone surrogate's bytes are not UTF-8", async () => {
      const raw = (bytes: Buffer) =>
        sendRaw(api.url, { method: "POST", path: VALIDATE, headers: live, body: bytes });
      const nulByte = await raw(Buffer.from(`{"chain":"hard\u0000hat"}`, "latin1"));
      expectEnvelope(nulByte, 400, "invalid_request");
      expect(nulByte.text).to.contain("not valid JSON");
      // ED A0 80: U+D800 encoded as if it were a character (WTF-8); decoding would make it U+FFFD silently.
      const surrogateBytes = Buffer.concat([
        Buffer.from('{"chain":"hard'),
        Buffer.from([0xed, 0xa0, 0x80]),
        Buffer.from('hat"}'),
      ]);
      const response = await raw(surrogateBytes);
      expectEnvelope(response, 400, "invalid_request");
      expect(response.text).to.contain("not valid UTF-8");
    });

    it("in a query parameter (name or value), on the public read routes and validation", async () => {
      expectRefusal(
        await api.call({ path: "/api/v1/protected-identities?chain=hard%00hat" }),
        "query",
        "chain",
      );
      expectRefusal(await api.call({ path: "/api/v1/protected-identities?q=moon%00" }), "query", "q");
      expectRefusal(await api.call({ path: "/api/v1/reservations?wallet=abc&x%00=1" }), "query", "x\\u0000");
      const direct = await api.call({
        method: "POST",
        path: `${VALIDATE}?trace=%00`,
        headers: live,
        body: GOOD,
      });
      expectRefusal(direct, "query", "trace");
    });

    it("in a stored header (Idempotency-Key): Node's parser refuses the bytes with the envelope", async () => {
      const nul = await sendRaw(api.url, {
        method: "POST",
        path: VALIDATE,
        headers: { ...live, "idempotency-key": "key\u0000one" },
        body: JSON.stringify(GOOD),
      });
      expectEnvelope(nul, 400, "invalid_request");
      // A lone surrogate's bytes in a header read as Latin-1 text, outside the key's visible-ASCII format.
      const surrogate = await sendRaw(api.url, {
        method: "POST",
        path: VALIDATE,
        headers: { ...live, "idempotency-key": Buffer.from([0xed, 0xa0, 0x80]).toString("latin1") },
        body: JSON.stringify(GOOD),
      });
      expectEnvelope(surrogate, 400, "invalid_request");
      expect(surrogate.body).to.have.nested.property("error.details.header", "Idempotency-Key");
    });
  });

  describe(`nesting deeper than ${MAX_NESTING_DEPTH}`, () => {
    const fields = { ...GOOD, durationSeconds: 86400 };

    for (const path of [VALIDATE, PREPARE]) {
      it(`${path}: 10,000 levels in an unknown field, with an Idempotency-Key or a nonce, is a 400, not a stack overflow`, async () => {
        for (const [headers, body] of [
          [{ ...live, "idempotency-key": `deep-${path}` }, withExtra(fields, nested(10_000))],
          [live, withExtra({ ...fields, nonce: `deep-nonce-${path}` }, nested(10_000))],
        ] as const) {
          const response = await api.call({ method: "POST", path, headers, body });
          const expectedPath = ["extra", ...Array(MAX_NESTING_DEPTH - 1).fill("a")].join(".");
          expect(expectRefusal(response, "body", expectedPath).message).to.contain(
            `more than ${MAX_NESTING_DEPTH} levels deep`,
          );
        }
      });
    }

    it(`accepts a body exactly ${MAX_NESTING_DEPTH} levels deep`, async () => {
      const body = withExtra(GOOD, nested(MAX_NESTING_DEPTH - 1)); // the body's object, then 31 in `extra`
      const response = await api.call({ method: "POST", path: VALIDATE, headers: live, body });
      expect(response.status, response.text).to.equal(200);
      const deeper = withExtra(GOOD, nested(MAX_NESTING_DEPTH));
      expectEnvelope(
        await api.call({ method: "POST", path: VALIDATE, headers: live, body: deeper }),
        400,
        "invalid_request",
      );
    });
  });
});

describe("api: the input rule holds for headers even when Node's parser lets control bytes through", () => {
  let server: Server;
  let url: string;
  let db: TestDatabase;
  before(async () => {
    db = await createTestDatabase();
    // The app as served, behind a lenient parser (--insecure-http-parser): the rule must not depend on it.
    const app = createApp({
      pool: db.pool,
      startedAt: new Date(),
      log: silentLogger(),
      hosts: TEST_HOSTS,
      decisions: { chains: [] },
    });
    server = createServer({ insecureHTTPParser: true }, app);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await db.close();
  });

  it("refuses a NUL in a header with a 400 naming the header", async () => {
    for (const path of [VALIDATE, "/api/v1/health"]) {
      const response = await sendRaw(url, {
        method: "POST",
        path,
        headers: { "x-service-keeper": "svc_keeper_\u0000" },
        body: JSON.stringify(GOOD),
      });
      expectRefusal(response, "header", "x-service-keeper");
    }
  });
});
