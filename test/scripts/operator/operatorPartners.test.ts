// Operator CLI for partners: access and production requests are listed, a production request is granted with
// a svc_live_ key shown once that works on the production host, the partner's row gains production (its
// integration starts), and every change is audited; a granted or unknown request cannot be granted again.
import { expect } from "chai";
import { commands } from "../../../scripts/operator/commands/partners";
import { bearer, TEST_HOSTS } from "../../api/support/harness";
import { emlMessages, tokenMailedTo } from "../../api/support/mailbox";
import { commandLookup, operatorOnTestApi } from "./support";

const command = commandLookup(commands);

describe("operator CLI: partners:requests, partners:grant, partners:close-request, partners:show", function () {
  this.timeout(30_000);
  const cli = operatorOnTestApi();
  const { printed } = cli;

  it("lists requests, grants production with a key shown once, and audits it", async () => {
    const access = await cli.api.call({
      method: "POST",
      path: "/api/v1/partners/request",
      body: { organization: "Grant Pad", email: "bd@grant.example", intendedUse: "validation" },
    });
    const accessId = (access.body as { requestId: string }).requestId;
    const signUp = await cli.api.call({
      method: "POST",
      path: "/api/v1/sandbox/keys",
      body: { organization: "Grant Pad", email: "dev@grant.example" },
    });
    const sandbox = signUp.body as { apiKey: string; partnerId: string };
    const token = tokenMailedTo(emlMessages(cli.api.mailDir), "dev@grant.example");
    await cli.api.call({ method: "POST", path: "/api/v1/partners/verify-email", body: { token } });
    const asked = await cli.api.call({
      method: "POST",
      path: "/api/v1/partners/production-request",
      headers: bearer(sandbox.apiKey),
      body: { message: "ready" },
    });
    const requestId = (asked.body as { requestId: string }).requestId;

    await command("partners:requests").run([], cli.context);
    expect(cli.lines.join("\n")).to.contain(accessId).and.contain(requestId).and.contain(sandbox.partnerId);
    expect(cli.lines.join("\n"), "listings never show keys").to.not.contain(sandbox.apiKey);

    cli.clearLines();
    await command("partners:grant").run(
      ["--request", requestId, "--rate-limit", "500", "--actor", "ops-ann", "--reason", "contract 7"],
      cli.context,
    );
    const apiKey = printed("apiKey");
    expect(apiKey).to.match(/^svc_live_/);
    expect(printed("partnerId")).to.equal(sandbox.partnerId);
    const introspection = await cli.api.call({
      path: "/api/v1/webhooks",
      host: TEST_HOSTS.production[0],
      headers: bearer(apiKey),
    });
    expect(introspection.status, introspection.text).to.equal(200);

    cli.clearLines();
    await command("partners:show").run(["--partner", sandbox.partnerId], cli.context);
    const partner = JSON.parse(cli.lines.join("\n"));
    expect(partner.environments).to.deep.equal(["sandbox", "production"]);
    expect(partner.integration.production.startedAt).to.be.a("string");
    const audit = await cli.api.db.pool.query(
      "SELECT actor, reason, details FROM audit_log WHERE action = 'partner.grant_production' AND subject = $1",
      [sandbox.partnerId],
    );
    expect(audit.rows[0]).to.deep.include({ actor: "ops-ann", reason: "contract 7" });
    expect(JSON.stringify(audit.rows)).to.not.contain(apiKey);

    let again: unknown;
    try {
      await command("partners:grant").run(
        ["--request", requestId, "--actor", "x", "--reason", "y"],
        cli.context,
      );
    } catch (error) {
      again = error;
    }
    expect((again as Error).message).to.match(/No open production request/);
    const keys = await cli.api.db.pool.query(
      "SELECT count(*)::int AS n FROM api_keys WHERE partner_id = $1 AND environment = 'production'",
      [sandbox.partnerId],
    );
    expect(keys.rows[0].n).to.equal(1);

    cli.clearLines();
    await command("partners:close-request").run(
      ["--request", accessId, "--actor", "ops-ann", "--reason", "answered by mail"],
      cli.context,
    );
    cli.clearLines();
    await command("partners:requests").run([], cli.context);
    expect(cli.lines.join("\n")).to.not.contain(accessId).and.not.contain(requestId);
  });
  it("declines a production request, audited; the partner may then ask again", async () => {
    const signUp = await cli.api.call({
      method: "POST",
      path: "/api/v1/sandbox/keys",
      body: { organization: "Decline Pad", email: "dev@decline.example" },
    });
    const sandbox = signUp.body as { apiKey: string; partnerId: string };
    const token = tokenMailedTo(emlMessages(cli.api.mailDir), "dev@decline.example");
    await cli.api.call({ method: "POST", path: "/api/v1/partners/verify-email", body: { token } });
    const ask = () =>
      cli.api.call({
        method: "POST",
        path: "/api/v1/partners/production-request",
        headers: bearer(sandbox.apiKey),
        body: {},
      });
    const first = (await ask()).body as { requestId: string };
    await command("partners:decline").run(
      ["--request", first.requestId, "--actor", "ops-ann", "--reason", "no volume yet"],
      cli.context,
    );
    const audit = await cli.api.db.pool.query(
      "SELECT reason FROM audit_log WHERE action = 'partner.decline_production' AND subject = $1",
      [sandbox.partnerId],
    );
    expect(audit.rows[0]).to.deep.equal({ reason: "no volume yet" });
    const again = await ask();
    expect(again.status, again.text).to.equal(201);
    expect((again.body as { requestId: string }).requestId).to.not.equal(first.requestId);
    const keys = await cli.api.db.pool.query(
      "SELECT count(*)::int AS n FROM api_keys WHERE partner_id = $1 AND environment = 'production'",
      [sandbox.partnerId],
    );
    expect(keys.rows[0].n).to.equal(0);
  });
});
