// An `Expect` header other than 100-continue: Node answers it itself (a bare 417, no body) unless the server
// listens for 'checkExpectation'. The API server (api/server.ts, which the harness uses) answers with the
// envelope like every other non-2xx answer.
import { expect } from "chai";
import { CHAINS, EVM_OTHER, setCheckpoints } from "../routes/identity/support";
import { bearer, expectEnvelope, issueKey, startTestApi, type TestApi } from "../support/harness";
import { sendRaw } from "../support/rawHttp";

const VALIDATE = "/api/v1/launches/validate";
const GOOD = { chain: "hardhat", name: "Expect Coin", ticker: "EXPC", launcher: EVM_OTHER };

describe("api: Expect headers", () => {
  let api: TestApi;
  let live: Record<string, string>;
  before(async () => {
    api = await startTestApi({ deps: { decisions: { chains: CHAINS } } });
    await setCheckpoints(api.db.pool);
    live = bearer((await issueKey(api, "production", { scopes: ["launch:validate"] })).secret);
  });
  after(async () => api.close());

  it("answers an Expect other than 100-continue with 417 and the envelope, not Node's empty 417", async () => {
    // A keyed and a keyless route: the server answers before either sees the request.
    for (const path of [VALIDATE, "/api/v1/identity/check"]) {
      const response = await sendRaw(api.url, {
        method: "POST",
        path,
        headers: { ...live, expect: "foo" },
        body: JSON.stringify(GOOD),
      });
      expectEnvelope(response, 417, "expectation_failed");
      expect(response.body).to.have.nested.property("error.details.header", "Expect");
      expect(response.headers["content-type"]).to.equal("application/json; charset=utf-8");
      expect(response.headers["x-content-type-options"]).to.equal("nosniff");
    }
  });

  it("still serves Expect: 100-continue", async () => {
    const response = await sendRaw(api.url, {
      method: "POST",
      path: VALIDATE,
      headers: { ...live, expect: "100-continue" },
      body: JSON.stringify(GOOD),
    });
    expect(response.status, response.text).to.equal(200);
    expect(response.body).to.have.property("decision", "allow");
  });
});
