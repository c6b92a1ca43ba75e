// The `launchpad` a partner sends is signed as launchpadId and stored on reports, so it must be that partner's.
// Over real HTTP; the operator CLI binds ids (audited). Every case refused here would otherwise sign or store
// another partner's id.
import { expect } from "chai";
import { commands } from "../../../../scripts/operator/commands/launchpads";
import { setLaunchReporting } from "../../../../services/identity/keeperCredentials";
import { apiOperatorContext, commandLookup } from "../../../scripts/operator/support";
import { bearer, expectEnvelope, issueKey, startTestApi, type TestApi } from "../../support/harness";
import { CHAINS, EVM_OTHER, independentlyVerified, publishedKeys, setCheckpoints } from "./support";

const OPERATOR = { actor: "test-operator", reason: "test" };
const launchpadCommand = commandLookup(commands);

describe("api: launchpad ids belong to partners", () => {
  let api: TestApi;
  let owner: { secret: string; keyId: string; partnerId: string };
  let stranger: { secret: string; keyId: string; partnerId: string };
  let lines: string[];

  const operator = (name: string, args: string[]) =>
    launchpadCommand(name).run(
      args,
      apiOperatorContext(api, (line) => lines.push(line)),
    );

  before(async () => {
    api = await startTestApi({ deps: { decisions: { chains: CHAINS } } });
    await setCheckpoints(api.db.pool);
    owner = await issueKey(api, "production", { rateLimitPerMinute: 2000 });
    stranger = await issueKey(api, "production", { rateLimitPerMinute: 2000 });
    for (const key of [owner, stranger]) await setLaunchReporting(api.db.pool, key.keyId, true, OPERATOR);
    lines = [];
    await operator("launchpads:bind", [
      "--launchpad",
      "moonpad",
      "--partner",
      owner.partnerId,
      "--actor",
      "ops-ann",
      "--reason",
      "contract 7",
    ]);
  });
  after(async () => api.close());

  const call = (path: string, secret: string, body: object) =>
    api.call({ method: "POST", path: `/api/v1/${path}`, headers: bearer(secret), body });
  const validation = (launchpad?: string) => ({
    chain: "hardhat",
    name: "Pad Coin",
    ticker: "PAD",
    launcher: EVM_OTHER,
    ...(launchpad === undefined ? {} : { launchpad }),
  });
  const report = (launchpad: string) => ({
    chain: "hardhat",
    launchpad,
    name: "Pad Coin",
    ticker: "PAD",
    launcher: EVM_OTHER,
    tokenOrMint: "0xtoken",
  });

  it("the bound partner's validation signs its launchpad id", async () => {
    const response = await call("launches/validate", owner.secret, validation("moonpad"));
    expect(response.status, response.text).to.equal(200);
    const decision = response.body as Record<string, string>;
    expect(decision.launchpadId).to.equal("moonpad");
    expect(independentlyVerified(decision, await publishedKeys(api, "production"))).to.equal(true);
  });

  it("another partner's launchpad id is refused 403 on validate and on reports; nothing signed or stored", async () => {
    const validate = await call("launches/validate", stranger.secret, validation("moonpad"));
    expectEnvelope(validate, 403, "launchpad_of_another_partner");
    expect(validate.body).to.nested.include({ "error.details.launchpad": "moonpad" });
    expectEnvelope(
      await call("launches/report", stranger.secret, report("moonpad")),
      403,
      "launchpad_of_another_partner",
    );
    const stored = await api.db.pool.query(
      `SELECT (SELECT count(*) FROM decisions WHERE partner_id = $1)::int AS decisions,
              (SELECT count(*) FROM identity_launches WHERE partner_id = $1)::int AS launches`,
      [stranger.partnerId],
    );
    expect(stored.rows[0]).to.deep.equal({ decisions: 0, launches: 0 });
  });

  it("production: an unbound id is refused 403 launchpad_not_registered; no launchpad signs the partner id", async () => {
    expectEnvelope(
      await call("launches/validate", stranger.secret, validation("freshpad")),
      403,
      "launchpad_not_registered",
    );
    expectEnvelope(
      await call("launches/report", stranger.secret, report("freshpad")),
      403,
      "launchpad_not_registered",
    );
    const own = await call("launches/validate", stranger.secret, validation());
    expect(own.status, own.text).to.equal(200);
    expect(own.body).to.include({ launchpadId: stranger.partnerId });
    const byPartnerId = await call("launches/report", stranger.secret, report(stranger.partnerId));
    expect(byPartnerId.status, byPartnerId.text).to.equal(200);
    expectEnvelope(
      await call("launches/validate", stranger.secret, validation(owner.partnerId)),
      400,
      "invalid_request",
    );
  });

  it("sandbox: the first partner to use an unbound id claims it there only; the next is refused", async () => {
    const first = await issueKey(api, "sandbox");
    const second = await issueKey(api, "sandbox");
    const claimed = await call("launches/validate", first.secret, validation("sandpad"));
    expect(claimed.status, claimed.text).to.equal(200);
    expect(claimed.body).to.include({ launchpadId: "sandpad", environment: "sandbox" });
    expect((await call("launches/report", first.secret, report("sandpad"))).status).to.equal(200);
    expectEnvelope(
      await call("launches/validate", second.secret, validation("sandpad")),
      403,
      "launchpad_of_another_partner",
    );
    // An id bound by an operator is its partner's in the sandbox as well.
    expectEnvelope(
      await call("launches/validate", second.secret, validation("moonpad")),
      403,
      "launchpad_of_another_partner",
    );
    // A sandbox claim is not a production binding.
    expectEnvelope(
      await call("launches/validate", owner.secret, validation("sandpad")),
      403,
      "launchpad_not_registered",
    );
  });

  it("the operator CLI binds, lists and unbinds, each change audited with actor and reason", async () => {
    lines = [];
    await operator("launchpads:list", []);
    expect(lines.filter((line) => line.startsWith("moonpad "))).to.have.length(2);
    await operator("launchpads:unbind", [
      "--launchpad",
      "moonpad",
      "--actor",
      "ops-ann",
      "--reason",
      "ended",
    ]);
    expectEnvelope(
      await call("launches/validate", owner.secret, validation("moonpad")),
      403,
      "launchpad_not_registered",
    );
    const audit = await api.db.pool.query<{ actor: string; action: string; reason: string }>(
      "SELECT actor, action, reason FROM audit_log WHERE subject = 'launchpad:moonpad' ORDER BY id",
    );
    expect(audit.rows).to.deep.equal([
      { actor: "ops-ann", action: "launchpad.bind", reason: "contract 7" },
      { actor: "ops-ann", action: "launchpad.unbind", reason: "ended" },
    ]);
  });
});
