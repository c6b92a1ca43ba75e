// Operator CLI: partners:set-revenue-share and partners:set-introductory-period, then over real HTTP. A change
// shows at once in the partner profile and key introspection (in both environments), a prepare after it
// snapshots the new split and introductory end, a prepare before keeps its snapshot and accrues at the old split
// on sandbox-confirm, the reconcile check still finds the ledger consistent, each change is audited with its
// previous value, days=0 applies the partner's split at once, and bad input changes nothing.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { expect } from "chai";
import { registryCatalogue } from "../../../chains/catalogue";
import { type OperatorContext, UsageError } from "../../../scripts/operator/command";
import { commands } from "../../../scripts/operator/commands/partners";
import { setIntroductoryPeriodDays, setPartnerBps } from "../../../services/partners/shareTerms";
import { CHAINS } from "../../api/routes/identity/support";
import { bearer, issueKey, startTestApi, TEST_HOSTS, type TestApi } from "../../api/support/harness";
import { offlineManifest } from "../../api/support/offlineManifest";
import { collectOutput } from "../../support/childOutput";
import { apiOperatorContext, commandLookup } from "./support";

const SANDBOX = TEST_HOSTS.sandbox[0];
const DAY_MS = 86_400_000;
const ACTOR = ["--actor", "ops-ann", "--reason", "contract amendment 7"];

type Key = Awaited<ReturnType<typeof issueKey>>;

interface ShareStatusBody {
  split: { partnerBps: number; serviceBps: number };
  introductoryPeriod: { days: number; startedAt: string | null; endsAt: string | null; active: boolean };
  currentShare: { partnerBps: number; serviceBps: number };
}

interface Snapshot {
  partnerBps: number;
  serviceBps: number;
  introductory: boolean;
  introductoryEndsAt: string | null;
}

interface LedgerRow {
  reservationId: string;
  feeAmount: string;
  partnerAmount: string;
  partnerBps: number;
  introductory: boolean;
}

const command = commandLookup(commands);

const launcher = () => `0x${randomBytes(20).toString("hex")}`;
let names = 0;
const identity = () => {
  names += 1;
  const tag = String.fromCharCode(65 + (names % 26), 65 + Math.floor(names / 26));
  return { name: `Share Otter ${tag}`, ticker: `SHR${tag}` };
};

describe("operator CLI: partners:set-revenue-share, partners:set-introductory-period (over HTTP)", function () {
  this.timeout(60_000);
  let api: TestApi;
  let context: OperatorContext;
  let lines: string[];

  before(async () => {
    api = await startTestApi({
      deps: { registries: registryCatalogue(offlineManifest()), decisions: { chains: CHAINS } },
    });
    context = apiOperatorContext(api, (line) => lines.push(line));
  });
  beforeEach(() => {
    lines = [];
  });
  afterEach(() => api.clock.unpin());
  after(async () => api?.close());

  const run = (name: string, args: string[]) => command(name).run([...args, ...ACTOR], context);

  const sandboxCall = (key: Key, path: string, body?: unknown) =>
    api.call({
      method: body === undefined ? "GET" : "POST",
      path: `/api/v1${path}`,
      host: SANDBOX,
      headers: bearer(key.secret),
      ...(body === undefined ? {} : { body }),
    });

  async function profile(key: Key, host?: string): Promise<ShareStatusBody> {
    const response = await api.call({
      path: "/api/v1/partner/profile",
      ...(host === undefined ? {} : { host }),
      headers: bearer(key.secret),
    });
    expect(response.status, response.text).to.equal(200);
    return response.body as ShareStatusBody;
  }

  async function introspected(key: Key): Promise<ShareStatusBody> {
    const response = await sandboxCall(key, "/sandbox/keys");
    expect(response.status, response.text).to.equal(200);
    return (response.body as { revenueShare: ShareStatusBody }).revenueShare;
  }

  const shareOf = (status: ShareStatusBody) => ({
    split: status.split,
    introductoryPeriod: status.introductoryPeriod,
    currentShare: status.currentShare,
  });

  async function prepare(key: Key): Promise<{ reservationId: string; revenueShare: Snapshot }> {
    const response = await sandboxCall(key, "/reservations/prepare", {
      chain: "hardhat",
      ...identity(),
      launcher: launcher(),
      durationSeconds: 86400,
    });
    expect(response.status, response.text).to.equal(201);
    return response.body as { reservationId: string; revenueShare: Snapshot };
  }

  async function confirm(key: Key, reservationId: string): Promise<void> {
    const response = await sandboxCall(key, "/reservations/sandbox-confirm", { reservationId });
    expect(response.status, response.text).to.equal(200);
  }

  async function ledger(key: Key): Promise<Map<string, LedgerRow>> {
    const response = await sandboxCall(key, "/partner/revenue?limit=50");
    expect(response.status, response.text).to.equal(200);
    const rows = (response.body as { rows: LedgerRow[] }).rows;
    return new Map(rows.map((row) => [row.reservationId, row]));
  }

  async function reconcileConsistent(key: Key): Promise<boolean> {
    const response = await sandboxCall(key, "/partner/revenue/reconcile");
    expect(response.status, response.text).to.equal(200);
    return (response.body as { consistent: boolean }).consistent;
  }

  async function auditOf(partnerId: string, action: string) {
    const { rows } = await api.db.pool.query<{
      actor: string;
      reason: string;
      details: Record<string, number>;
    }>("SELECT actor, reason, details FROM audit_log WHERE subject = $1 AND action = $2 ORDER BY id", [
      partnerId,
      action,
    ]);
    return rows;
  }

  it("a split change shows at once in profile and introspection (both environments), applies to later prepares only, and is audited", async () => {
    const key = await issueKey(api, "sandbox");
    const production = await issueKey(api, "production", { partnerId: key.partnerId });
    // Past the 30-day introductory period on the service's clock.
    api.clock.set(Date.now() + 31 * DAY_MS);
    expect((await profile(key, SANDBOX)).currentShare).to.deep.equal({ partnerBps: 6000, serviceBps: 4000 });
    const before = await prepare(key);
    expect(before.revenueShare).to.include({ partnerBps: 6000, serviceBps: 4000, introductory: false });

    await run("partners:set-revenue-share", ["--partner", key.partnerId, "--partner-bps", "7500"]);
    expect(lines.join("\n")).to.contain(`${key.partnerId} now earns 7500 bps (service 2500)`);

    const sandboxProfile = await profile(key, SANDBOX);
    expect(sandboxProfile.split).to.deep.equal({ partnerBps: 7500, serviceBps: 2500 });
    expect(sandboxProfile.currentShare).to.deep.equal({ partnerBps: 7500, serviceBps: 2500 });
    expect(await introspected(key)).to.deep.equal(shareOf(sandboxProfile));
    // One partner row serves both environments: production shows the same split.
    expect((await profile(production)).split).to.deep.equal({ partnerBps: 7500, serviceBps: 2500 });

    const after = await prepare(key);
    expect(after.revenueShare).to.include({ partnerBps: 7500, serviceBps: 2500, introductory: false });
    // Both confirmed after the change: each accrues at its own snapshot's split.
    await confirm(key, before.reservationId);
    await confirm(key, after.reservationId);
    const rows = await ledger(key);
    const old = rows.get(before.reservationId);
    const fresh = rows.get(after.reservationId);
    expect(old).to.include({ partnerBps: 6000, introductory: false });
    expect(BigInt(old?.partnerAmount ?? -1)).to.equal((BigInt(old?.feeAmount ?? 0) * 6000n) / 10_000n);
    expect(fresh).to.include({ partnerBps: 7500 });
    expect(BigInt(fresh?.partnerAmount ?? -1)).to.equal((BigInt(fresh?.feeAmount ?? 0) * 7500n) / 10_000n);
    // The old row is no mismatch: the check compares each entry with its own snapshot, never the live split.
    expect(await reconcileConsistent(key)).to.equal(true);

    const audit = await auditOf(key.partnerId, "partner.revenue_share");
    expect(audit).to.deep.equal([
      { actor: "ops-ann", reason: "contract amendment 7", details: { previous: 6000, partnerBps: 7500 } },
    ]);
  });

  it("days=0 applies the partner's split at once; a longer period starts it again; snapshots follow, earlier ones stay", async () => {
    const key = await issueKey(api, "sandbox");
    const started = await profile(key, SANDBOX);
    expect(started.introductoryPeriod).to.include({ days: 30, active: true });
    expect(started.currentShare).to.deep.equal({ partnerBps: 0, serviceBps: 10_000 });
    const startedAt = Date.parse(started.introductoryPeriod.startedAt ?? "");
    const endOf = (days: number) => new Date(startedAt + days * DAY_MS).toISOString();
    expect(started.introductoryPeriod.endsAt).to.equal(endOf(30));
    const inside = await prepare(key);
    expect(inside.revenueShare).to.include({
      partnerBps: 0,
      introductory: true,
      introductoryEndsAt: endOf(30),
    });

    await run("partners:set-introductory-period", ["--partner", key.partnerId, "--days", "0"]);
    expect(lines[0]).to.equal(`${key.partnerId} now has a 0-day introductory period.`);
    const none = await profile(key, SANDBOX);
    expect(none.introductoryPeriod).to.deep.equal({
      days: 0,
      startedAt: started.introductoryPeriod.startedAt,
      endsAt: endOf(0),
      active: false,
    });
    expect(none.currentShare).to.deep.equal({ partnerBps: 6000, serviceBps: 4000 });
    expect(await introspected(key)).to.deep.equal(shareOf(none));
    const standard = await prepare(key);
    expect(standard.revenueShare).to.include({
      partnerBps: 6000,
      introductory: false,
      introductoryEndsAt: endOf(0),
    });

    await run("partners:set-introductory-period", ["--partner", key.partnerId, "--days", "90"]);
    const longer = await profile(key, SANDBOX);
    expect(longer.introductoryPeriod).to.include({ days: 90, endsAt: endOf(90), active: true });
    expect((await introspected(key)).introductoryPeriod).to.deep.equal(longer.introductoryPeriod);
    const again = await prepare(key);
    expect(again.revenueShare).to.include({
      partnerBps: 0,
      introductory: true,
      introductoryEndsAt: endOf(90),
    });

    // Confirmed after both changes, each reservation accrues at the split its prepare snapshotted.
    for (const reservation of [inside, standard, again]) await confirm(key, reservation.reservationId);
    const rows = await ledger(key);
    expect(rows.get(inside.reservationId)).to.include({
      partnerBps: 0,
      introductory: true,
      partnerAmount: "0",
    });
    expect(rows.get(standard.reservationId)).to.include({ partnerBps: 6000, introductory: false });
    expect(rows.get(again.reservationId)).to.include({ partnerBps: 0, introductory: true });
    expect(await reconcileConsistent(key)).to.equal(true);

    const audit = await auditOf(key.partnerId, "partner.introductory_period");
    expect(audit.map((row) => row.details)).to.deep.equal([
      { previous: 30, introductoryPeriodDays: 0 },
      { previous: 0, introductoryPeriodDays: 90 },
    ]);
    lines = [];
    await command("partners:show").run(["--partner", key.partnerId, "--json"], context);
    expect(JSON.parse(lines.join("\n"))).to.include({ partnerBps: 6000, introductoryPeriodDays: 90 });
  });

  it("as a real process: bad input exits 2 with the reason and changes nothing; a good change exits 0 and shows at once", async function () {
    this.timeout(120_000);
    const key = await issueKey(api, "sandbox");
    const url = new URL(api.db.url);
    // Postgres takes the suite's schema from the startup options; the embedded server shares the suite's session.
    url.searchParams.set("options", `-c search_path=${api.db.schema}`);
    // Asynchronously: on the embedded default the database server runs in this process.
    const cli = (...args: string[]) =>
      new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve, reject) => {
        const child = spawn(process.execPath, ["--import", "tsx", "scripts/operator/index.ts", ...args], {
          env: { ...process.env, DATABASE_URL: url.toString(), MASTER_KEY: api.masterKey.toString("base64") },
        });
        const output = collectOutput(child);
        child.on("error", reject);
        child.on("close", (status) => resolve({ status, ...output() }));
      });
    const refused = await cli(
      "partners:set-revenue-share",
      ...["--partner", key.partnerId, "--partner-bps", "10001", ...ACTOR],
    );
    expect(refused.status, refused.stderr).to.equal(2);
    expect(refused.stderr).to.contain("--partner-bps must be a whole number of basis points from 0 to 10000");
    expect((await profile(key, SANDBOX)).split).to.deep.equal({ partnerBps: 6000, serviceBps: 4000 });

    const changed = await cli(
      "partners:set-revenue-share",
      ...["--partner", key.partnerId, "--partner-bps", "7000", ...ACTOR],
    );
    expect(changed.status, changed.stderr).to.equal(0);
    expect(changed.stdout).to.contain(`${key.partnerId} now earns 7000 bps (service 3000)`);
    expect((await profile(key, SANDBOX)).split).to.deep.equal({ partnerBps: 7000, serviceBps: 3000 });
    expect(await auditOf(key.partnerId, "partner.revenue_share")).to.have.length(1);
  });

  it("refuses bad input with a clear message and changes nothing; the database refuses out-of-bounds terms too", async () => {
    const key = await issueKey(api, "sandbox");
    const before = await profile(key, SANDBOX);
    const partner = ["--partner", key.partnerId];
    const attempts: [string, string[], RegExp][] = [
      [
        "partners:set-revenue-share",
        [...partner, "--partner-bps", "10001", ...ACTOR],
        /--partner-bps must be/,
      ],
      ["partners:set-revenue-share", [...partner, "--partner-bps", "-1", ...ACTOR], /--partner-bps must be/],
      [
        "partners:set-revenue-share",
        [...partner, "--partner-bps", "60.5", ...ACTOR],
        /--partner-bps must be/,
      ],
      ["partners:set-revenue-share", [...partner, "--partner-bps", "6e3", ...ACTOR], /--partner-bps must be/],
      [
        "partners:set-revenue-share",
        [...partner, "--partner-bps", "7000", "--actor", "a"],
        /--reason is required/,
      ],
      [
        "partners:set-revenue-share",
        [...partner, "--partner-bps", "7000", "--reason", "r"],
        /--actor is required/,
      ],
      ["partners:set-revenue-share", ["--partner-bps", "7000", ...ACTOR], /--partner is required/],
      ["partners:set-introductory-period", [...partner, "--days", "366", ...ACTOR], /--days must be/],
      ["partners:set-introductory-period", [...partner, "--days", "ten", ...ACTOR], /--days must be/],
      [
        "partners:set-introductory-period",
        [...partner, "--days", "5", "--bps", "1", ...ACTOR],
        /Unknown option/,
      ],
    ];
    for (const [name, args, message] of attempts) {
      const error = await command(name)
        .run(args, context)
        .then(
          () => undefined,
          (caught: unknown) => caught,
        );
      // A UsageError: the CLI prints it with the command's usage and exits 2.
      expect(error, args.join(" ")).to.be.instanceOf(UsageError);
      expect((error as Error).message, args.join(" ")).to.match(message);
    }
    // An unknown partner: refused by the service (the CLI prints "Failed: …" and exits 1).
    const unknown = await run("partners:set-introductory-period", [
      "--partner",
      "ptn_nobody",
      "--days",
      "0",
    ]).then(
      () => undefined,
      (caught: unknown) => caught as Error,
    );
    expect(unknown?.message).to.contain("No partner has id ptn_nobody");
    // The use cases check bounds themselves, and the database's CHECK constraints hold whatever writes.
    const audit = { actor: "ops", reason: "test" };
    // One at a time: a refused promise left waiting behind another is an unhandled rejection to mocha.
    const refusable: Array<() => Promise<unknown>> = [
      () => setPartnerBps(api.db.pool, key.partnerId, 10_001, audit),
      () => setIntroductoryPeriodDays(api.db.pool, key.partnerId, 366, audit),
      () =>
        api.db.pool.query("UPDATE partners SET partner_bps = 10001 WHERE partner_id = $1", [key.partnerId]),
      () =>
        api.db.pool.query("UPDATE partners SET introductory_period_days = -1 WHERE partner_id = $1", [
          key.partnerId,
        ]),
      () =>
        api.db.pool.query("UPDATE partners SET introductory_period_days = 366 WHERE partner_id = $1", [
          key.partnerId,
        ]),
    ];
    for (const attempt of refusable) {
      expect(
        await attempt().then(
          () => "changed",
          () => "refused",
        ),
      ).to.equal("refused");
    }

    expect(await profile(key, SANDBOX)).to.deep.equal(before);
    const { rows } = await api.db.pool.query("SELECT 1 FROM audit_log WHERE subject = $1", [key.partnerId]);
    expect(rows).to.deep.equal([]);
  });
});
