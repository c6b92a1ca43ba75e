// The one request sequence every API route runs (api/platform/requestSequence.ts): body rule, security headers,
// envelope, request ids, rate headers, path matching, admission before the fields, HEAD and path parameters.
import { expect } from "chai";
import { RESPONSE_VERSION } from "../../../api/platform/responseVersion";
import { SECURITY_HEADERS } from "../../../api/platform/securityHeaders";
import { CHAINS, EVM_OTHER, setCheckpoints } from "../routes/identity/support";
import { bearer, expectEnvelope, issueKey, startTestApi, type TestApi } from "../support/harness";
import { type HttpRequest, send } from "../support/http";

const VALIDATE = "/api/v1/launches/validate";
const CHECK = "/api/v1/identity/check"; // a keyless route with a JSON body
const GOOD = { chain: "hardhat", name: "Direct Coin", ticker: "DRC", launcher: EVM_OTHER };
describe("api: the request sequence of every route", () => {
  let api: TestApi;
  let auth: Record<string, string>;

  before(async () => {
    api = await startTestApi({ deps: { decisions: { chains: CHAINS } } });
    await setCheckpoints(api.db.pool);
    auth = bearer((await issueKey(api, "production", { scopes: ["launch:validate"] })).secret);
  });
  after(async () => api.close());

  const post = (path: string, request: Omit<HttpRequest, "path" | "method"> = {}) =>
    api.call({ method: "POST", path, ...request, headers: { ...auth, ...request.headers } });

  it("answers with the security headers, JSON type and responseVersion of every route, and no framework header", async () => {
    const response = await post(VALIDATE, { body: GOOD });
    expect(response.status, response.text).to.equal(200);
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) {
      expect(response.headers[name.toLowerCase()], name).to.equal(value);
    }
    expect(response.headers["content-type"]).to.equal("application/json; charset=utf-8");
    expect(response.headers["x-powered-by"]).to.equal(undefined);
    expect(response.body).to.include({ decision: "allow", responseVersion: RESPONSE_VERSION });
  });

  it("sends one Request-Id on every answer: the keyed X-Request-Id and an error body's requestId are the same", async () => {
    const allowed = await post(VALIDATE, { body: GOOD });
    expect(allowed.headers["request-id"]).to.match(/^req_[0-9a-f]{16}$/);
    expect(allowed.headers["x-request-id"]).to.equal(allowed.headers["request-id"]);
    const refused = await post(VALIDATE, { body: { ...GOOD, ticker: 5 } });
    expectEnvelope(refused, 400, "invalid_request");
    expect(refused.headers["request-id"]).to.match(/^req_[0-9a-f]{16}$/);
    expect(refused.headers["request-id"]).to.not.equal(allowed.headers["request-id"]);
    expect(refused.body).to.have.nested.property("error.details.requestId", refused.headers["request-id"]);
    const unauthenticated = await api.call({ method: "POST", path: VALIDATE, body: GOOD });
    expectEnvelope(unauthenticated, 401, "unauthorized");
    expect(unauthenticated.headers["request-id"]).to.match(/^req_[0-9a-f]{16}$/);
    expect(unauthenticated.headers["x-request-id"]).to.equal(undefined);
  });

  it("matches the path in any case, with a trailing slash, beside a query string", async () => {
    for (const path of [`${VALIDATE}/`, VALIDATE.toUpperCase(), `${VALIDATE}?debug=1`]) {
      // Straight to the server: the harness checks answers against the document, which lists one spelling.
      const response = await send(api.url, { method: "POST", path, headers: auth, body: GOOD });
      expect(response.status, `${path}: ${response.text}`).to.equal(200);
      expect(response.body).to.have.property("signature");
    }
    expectEnvelope(await api.call({ path: VALIDATE, headers: auth }), 404, "not_found");
  });

  it("applies the one body rule, with the same answers on keyed and keyless routes", async () => {
    const cases: { request: Omit<HttpRequest, "path" | "method">; status: number; code: string }[] = [
      { request: { body: '{"name": ' }, status: 400, code: "invalid_request" },
      { request: { body: '"just a string"' }, status: 400, code: "invalid_request" },
      { request: { body: "x".repeat(70_000) }, status: 413, code: "payload_too_large" },
      {
        request: { body: "{}", headers: { "content-type": "application/json; charset=latin1" } },
        status: 415,
        code: "unsupported_media_type",
      },
      {
        request: { body: "{}", headers: { "content-encoding": "gzip" } },
        status: 415,
        code: "unsupported_media_type",
      },
      // Not declared as JSON: not read, so validation names the missing fields.
      {
        request: { body: "name=x", headers: { "content-type": "text/plain" } },
        status: 400,
        code: "invalid_request",
      },
    ];
    for (const { request, status, code } of cases) {
      for (const path of [VALIDATE, CHECK]) {
        const response = await post(path, request);
        expectEnvelope(response, status, code);
        if (path === VALIDATE) expect(response.headers["x-content-type-options"]).to.equal("nosniff");
      }
    }
    const missing = await post(VALIDATE, { body: "name=x", headers: { "content-type": "text/plain" } });
    expect(missing.text).to.contain("chain");
  });

  it("checks the key before the fields, and the fields before deciding", async () => {
    expectEnvelope(
      await api.call({ method: "POST", path: VALIDATE, body: { name: 1 } }),
      401,
      "unauthorized",
    );
    // A name that folds out of bounds is a field error too, found after the key is checked.
    const foldsEmpty = { ...GOOD, name: "\u200b" };
    expectEnvelope(await api.call({ method: "POST", path: VALIDATE, body: foldsEmpty }), 401, "unauthorized");
    expectEnvelope(await post(VALIDATE, { body: foldsEmpty }), 400, "invalid_request");
    const fieldsWrong = await post(VALIDATE, { body: { ...GOOD, ticker: 5 } });
    expectEnvelope(fieldsWrong, 400, "invalid_request");
    expect(fieldsWrong.headers["ratelimit-remaining"], "rate headers on refusals too").to.match(/^\d+$/);
  });

  it("a key past its limit gets 429 with Retry-After and RateLimit-Remaining 0", async () => {
    const sandbox = bearer((await issueKey(api, "sandbox", { scopes: ["launch:validate"] })).secret);
    let last = await post(VALIDATE, { body: GOOD, headers: sandbox });
    for (let count = 1; last.status === 200; count += 1) {
      expect(count, "the sandbox limit is 60 a minute").to.be.at.most(60);
      last = await post(VALIDATE, { body: GOOD, headers: sandbox });
    }
    expectEnvelope(last, 429, "rate_limited");
    expect(last.headers["retry-after"]).to.match(/^\d+$/);
    expect(last.headers["ratelimit-remaining"]).to.equal("0");
  });

  it("answers HEAD as GET without the body, and decodes path parameters (a malformed one is 400)", async () => {
    const head = await send(api.url, { method: "HEAD", path: "/api/v1/health" });
    const get = await send(api.url, { path: "/api/v1/health" });
    expect(head.status).to.equal(get.status);
    expect(head.text).to.equal("");
    expect(head.headers["content-type"]).to.equal("application/json; charset=utf-8");
    expect(head.headers["x-content-type-options"]).to.equal("nosniff");
    const webhooks = bearer((await issueKey(api, "sandbox")).secret);
    const unknown = await send(api.url, {
      method: "DELETE",
      path: "/api/v1/webhooks/wh_%7Bnone%7D",
      headers: webhooks,
    });
    expectEnvelope(unknown, 404, "webhook_not_found");
    const malformed = await send(api.url, {
      method: "DELETE",
      path: "/api/v1/webhooks/%E0%A4%A",
      headers: webhooks,
    });
    expectEnvelope(malformed, 400, "invalid_request");
    expect(malformed.body).to.have.nested.property("error.details.in", "path");
    const keyless = await send(api.url, { method: "DELETE", path: "/api/v1/webhooks/%E0%A4%A" });
    expectEnvelope(keyless, 401, "unauthorized");
  });
});
