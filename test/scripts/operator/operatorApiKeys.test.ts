import { expect } from "chai";
import { UsageError } from "../../../scripts/operator/command";
import { commands } from "../../../scripts/operator/commands/api-keys";
import { bearer, expectEnvelope, issueKey } from "../../api/support/harness";
import { commandLookup, operatorOnTestApi } from "./support";

const WHOAMI_SCOPED = "/api/v1/sandbox/keys";

const command = commandLookup(commands);

describe("operator CLI: api-keys:create, api-keys:list, api-keys:revoke", () => {
  const cli = operatorOnTestApi();
  const { printed } = cli;

  it("provisions a production key with scopes and a rate limit, shows it once, and audits the actor", async () => {
    await command("api-keys:create").run(
      [
        "--label",
        "Acme",
        "--scopes",
        "launch:validate,launch:report",
        "--rate-limit",
        "1500",
        "--partner",
        "ptn_acme",
        "--actor",
        "ops-bob",
        "--reason",
        "contract 42",
      ],
      cli.context,
    );
    const apiKey = printed("apiKey");
    const keyId = printed("keyId");
    expect(apiKey).to.match(/^svc_live_/);
    const response = await cli.api.call({ path: WHOAMI_SCOPED, headers: bearer(apiKey) });
    // A production key authenticates (and is refused only because this endpoint is sandbox-only).
    expectEnvelope(response, 403, "sandbox_only");
    expect(response.headers["ratelimit-policy"]).to.equal('"per-minute";q=1500;w=60');
    const { rows } = await cli.api.db.pool.query(
      "SELECT k.partner_id, k.scopes, a.actor, a.reason FROM api_keys k JOIN audit_log a ON a.subject = k.key_id WHERE k.key_id = $1",
      [keyId],
    );
    expect(rows).to.deep.equal([
      {
        partner_id: "ptn_acme",
        scopes: ["launch:validate", "launch:report"],
        actor: "ops-bob",
        reason: "contract 42",
      },
    ]);
  });

  it("sets a production key's rate limit, effective from its next request and audited; refuses sandbox and revoked keys", async () => {
    const run = (name: string, args: string[]) =>
      command(name).run([...args, "--actor", "ops-ann", "--reason", "raise per partner"], cli.context);
    await run("api-keys:create", ["--label", "Raise", "--scopes", "launch:validate", "--rate-limit", "300"]);
    const apiKey = printed("apiKey");
    const keyId = printed("keyId");
    const call = () => cli.api.call({ path: WHOAMI_SCOPED, headers: bearer(apiKey) });
    expect((await call()).headers["ratelimit-policy"]).to.equal('"per-minute";q=300;w=60');

    await run("api-keys:set-rate-limit", ["--key", keyId, "--rate-limit", "1500"]);
    expect((await call()).headers["ratelimit-policy"]).to.equal('"per-minute";q=1500;w=60');
    cli.clearLines();
    await command("api-keys:list").run([], cli.context);
    expect(cli.lines.find((line) => line.startsWith(keyId))).to.contain("1500/min");
    // Lowered below this minute's count: the next request is refused at once.
    await run("api-keys:set-rate-limit", ["--key", keyId, "--rate-limit", "1"]);
    expectEnvelope(await call(), 429, "rate_limited");
    const audit = await cli.api.db.pool.query<{ details: { previous: number; rateLimitPerMinute: number } }>(
      "SELECT details FROM audit_log WHERE action = 'api_key.rate_limit' AND subject = $1 ORDER BY id",
      [keyId],
    );
    expect(audit.rows.map((row) => [row.details.previous, row.details.rateLimitPerMinute])).to.deep.equal([
      [300, 1500],
      [1500, 1],
    ]);

    const refusals: unknown[] = [];
    const attempt = (args: string[]) =>
      run("api-keys:set-rate-limit", args).catch((error: unknown) => refusals.push(error));
    await attempt(["--key", keyId, "--rate-limit", "2001"]);
    await attempt(["--key", (await issueKey(cli.api, "sandbox")).keyId, "--rate-limit", "100"]);
    await run("api-keys:revoke", ["--key", keyId]);
    await attempt(["--key", keyId, "--rate-limit", "100"]);
    expect(refusals.map((error) => (error as Error).message)).to.satisfy(
      (messages: string[]) =>
        messages.length === 3 &&
        messages[0]?.includes("--rate-limit must be") &&
        messages[1]?.includes("sandbox key") &&
        messages[2]?.includes("revoked"),
    );
  });

  it("refuses unknown scopes, limits above 2000 and a missing actor or reason", async () => {
    const base = ["--label", "x", "--actor", "a", "--reason", "r"];
    const bad = [
      [...base, "--scopes", "launch:everything"],
      [...base, "--scopes", "launch:validate", "--rate-limit", "2001"],
      ["--label", "x", "--scopes", "launch:validate", "--reason", "r"],
      ["--label", "x", "--scopes", "launch:validate", "--actor", "a"],
    ];
    for (const args of bad) {
      let error: unknown;
      try {
        await command("api-keys:create").run(args, cli.context);
      } catch (caught) {
        error = caught;
      }
      expect(error, args.join(" ")).to.be.instanceOf(UsageError);
    }
  });

  it("--json prints only the result, one JSON document with the one-time key, for scripts", async () => {
    await command("api-keys:create").run(
      [
        "--label",
        "Scripted",
        "--scopes",
        "launch:validate",
        "--rate-limit",
        "50",
        "--actor",
        "ops",
        "--reason",
        "t",
        "--json",
      ],
      cli.context,
    );
    expect(cli.lines).to.have.length(1);
    const created = JSON.parse(cli.lines[0] as string);
    expect(created).to.include({ label: "Scripted", rateLimitPerMinute: 50 });
    expect(created.apiKey).to.match(/^svc_live_/);
    cli.clearLines();
    await command("api-keys:list").run(["--environment", "production", "--json"], cli.context);
    const listed = JSON.parse(cli.lines.join("\n")) as { keyId: string; rateLimitPerMinute: number }[];
    expect(listed.find((key) => key.keyId === created.keyId)?.rateLimitPerMinute).to.equal(50);
  });

  it("lists keys without secrets and revokes one with an audited actor and reason", async () => {
    await command("api-keys:create").run(
      ["--label", "ToRevoke", "--scopes", "launch:validate", "--actor", "ops", "--reason", "test"],
      cli.context,
    );
    const apiKey = printed("apiKey");
    const keyId = printed("keyId");
    cli.clearLines();
    await command("api-keys:list").run(["--environment", "production"], cli.context);
    const listed = cli.lines.find((line) => line.startsWith(keyId));
    expect(listed).to.contain("active").and.contain("ToRevoke");
    expect(cli.lines.join("\n")).to.not.contain(apiKey.slice(13));
    await command("api-keys:revoke").run(
      ["--key", keyId, "--actor", "ops-carol", "--reason", "leaked in a log"],
      cli.context,
    );
    expectEnvelope(await cli.api.call({ path: WHOAMI_SCOPED, headers: bearer(apiKey) }), 401, "key_revoked");
    cli.clearLines();
    await command("api-keys:list").run([], cli.context);
    expect(cli.lines.some((line) => line.startsWith(keyId))).to.equal(false);
    cli.clearLines();
    await command("api-keys:list").run(["--all"], cli.context);
    expect(cli.lines.find((line) => line.startsWith(keyId)))
      .to.contain("revoked")
      .and.contain("ops-carol");
  });
});
