// A realistic API flow with every log line captured at debug level: keys of both environments, webhook
// endpoints with their secrets (created and rotated), keyed and badly keyed requests, errors with secrets in
// the path, in a header and in an unhandled error's message. No secret the test created appears in any line,
// while the lines about those very requests are there (so the check judges something).
import { expect } from "chai";
import type { RouteModule } from "../../api/app";
import { registerMasterKey } from "../../telemetry/role";
import { bearer, issueKey, startTestApi, type TestApi } from "../api/support/harness";
import { send } from "../api/support/http";
import { tableLookup } from "../services/webhooks/support";
import { memoryLogger } from "../support/logs";

describe("telemetry: no secret reaches the logs", function () {
  this.timeout(60_000);
  const logs = memoryLogger("debug");
  let api: TestApi;
  const secrets: string[] = [];
  // A route that fails with a secret in its error message: the unhandled-error path logs that message.
  const failing: RouteModule = ({ routes }) => {
    routes.route(
      {
        method: "get",
        path: "/v1/test-failure",
        summary: "Test fixture: fails with the caller's Authorization header in its message.",
        tag: "Test fixtures",
        access: "public",
        responses: { 200: { description: "Never sent." } },
      },
      ({ headers }) => {
        throw new Error(`failed while holding ${headers.authorization}`);
      },
    );
  };

  before(async () => {
    api = await startTestApi({
      deps: {
        log: logs.log,
        webhooks: {
          allowLocalReceivers: false,
          lookup: tableLookup({ "hooks.example.com": ["93.184.216.34"] }),
        },
      },
      extraRoutes: [failing],
    });
    registerMasterKey(api.masterKey);
    secrets.push(api.masterKey.toString("base64"), api.masterKey.toString("hex"));
  });
  after(async () => api.close());

  it("keeps keys, signing and webhook secrets, the master key and Authorization headers out of every line", async () => {
    const sandbox = await issueKey(api, "sandbox");
    const live = await issueKey(api, "production");
    secrets.push(sandbox.secret, live.secret);

    const created = await api.call({
      method: "POST",
      path: "/api/v1/webhooks",
      headers: bearer(sandbox.secret),
      body: { url: "https://hooks.example.com/in" },
    });
    expect(created.status, created.text).to.equal(201);
    const endpoint = created.body as { id: string; signingSecret: string };
    secrets.push(endpoint.signingSecret);
    const rotated = await api.call({
      method: "PATCH",
      path: `/api/v1/webhooks/${endpoint.id}`,
      headers: bearer(sandbox.secret),
      body: { rotateSecret: true },
    });
    expect(rotated.status, rotated.text).to.equal(200);
    secrets.push((rotated.body as { signingSecret: string }).signingSecret);

    const listed = await api.call({ path: "/api/v1/webhooks", headers: bearer(live.secret) });
    expect(listed.status).to.equal(200);
    const unknownKey = `svc_live_${"A".repeat(43)}`;
    secrets.push(unknownKey);
    expect((await api.call({ path: "/api/v1/webhooks", headers: bearer(unknownKey) })).status).to.equal(401);
    // Secrets in the path, in another header, and in an unhandled error's message.
    const inPath = await api.call({ path: `/api/v1/nothing/${live.secret}`, headers: bearer(live.secret) });
    expect(inPath.status).to.equal(404);
    const inHeader = await api.call({
      path: "/api/v1/health",
      headers: { "x-pasted": `${endpoint.signingSecret} ${sandbox.secret}` },
    });
    expect(inHeader.headers["request-id"]).to.match(/^req_[0-9a-f]{16}$/);
    // Not in the OpenAPI document, so sent past the harness's conformance check.
    const failed = await send(api.url, { path: "/api/v1/test-failure", headers: bearer(live.secret) });
    expect(failed.status).to.equal(500);
    expect(failed.body).to.have.nested.property("error.details.requestId", failed.headers["request-id"]);

    const text = logs.lines().join("");
    // The lines about these requests are there: a request line per answer, the unhandled error.
    expect(text).to.contain('"route":"/v1/webhooks"').and.contain('"x-pasted"');
    expect(text).to.contain("unhandled error").and.contain(String(failed.headers["request-id"]));
    expect(text).to.contain("[redacted]");
    for (const secret of secrets) expect(text, "a secret in the logs").not.to.contain(secret);
  });
});
