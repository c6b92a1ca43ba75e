// Each sandbox partner rehearses alone, over real HTTP: what one partner's sandbox keys create (holds, launch
// reports, locks) is invisible to another partner's validate and check; the seven seeded scenarios are shared,
// read-only (no hold, prepare, report or lock on them) and always current, however far the clock moves; a
// partner's wallet holds at most three pairs at once.
import { expect } from "chai";
import { registryCatalogue } from "../../../../chains/catalogue";
import { SANDBOX_DESIGNATED_LAUNCHER } from "../../../../core/status";
import { bearer, expectEnvelope, issueKey, startTestApi, type TestApi } from "../../support/harness";
import { CHAINS, EVM_OTHER, setCheckpoints } from "./support";

const SANDBOX_HOST = "sandbox.test";
const DAY = 86_400_000;
const SCENARIOS = [
  ["SandboxFox", "SFOX"],
  ["MoonBadger", "BADGER"],
  ["IronWhale", "IRON"],
  ["DuskRaven", "DUSK"],
  ["VampCoin", "VAMP"],
  ["ClearSky", "CLEAR"],
  ["NightShade", "SHADE"],
] as const;
const OWNER = "0x7777777777777777777777777777777777777777";
// Addresses only: the sandbox's simulated registries never call the RPC.
const REGISTRIES = registryCatalogue({
  evm: [
    {
      chain: "hardhat",
      chainId: 31337,
      rpcUrl: "http://127.0.0.1:1",
      registry: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
      priceFeed: "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512",
      deployBlock: 1,
      sandbox: { registry: "0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0" },
    },
  ],
  solana: [],
});

interface Answer {
  decision: string;
  status: string;
  reason: string;
}

describe("api: the sandbox per partner", () => {
  let api: TestApi;
  let alice: { secret: string; partnerId: string };
  let bob: { secret: string; partnerId: string };

  before(async () => {
    api = await startTestApi({ deps: { decisions: { chains: CHAINS }, registries: REGISTRIES } });
    await setCheckpoints(api.db.pool);
    alice = await issueKey(api, "sandbox");
    bob = await issueKey(api, "sandbox");
  });
  after(async () => api.close());

  const post = (path: string, body: Record<string, unknown>, key: string) =>
    api.call({ method: "POST", path: `/api/v1/${path}`, host: SANDBOX_HOST, headers: bearer(key), body });
  const validate = async (key: string, name: string, ticker: string, launcher: string): Promise<Answer> => {
    const response = await post("launches/validate", { chain: "hardhat", name, ticker, launcher }, key);
    expect(response.status, response.text).to.equal(200);
    return response.body as Answer;
  };
  const check = async (query: string, key?: string): Promise<Answer> => {
    const response = await api.call({
      path: `/api/v1/identity/check?chain=hardhat&${query}`,
      host: SANDBOX_HOST,
      ...(key === undefined ? {} : { headers: bearer(key) }),
    });
    expect(response.status, response.text).to.equal(200);
    return response.body as Answer;
  };
  const hold = (key: string, name: string, ticker: string, launcher: string) =>
    post("reservations", { chain: "hardhat", name, ticker, launcher, durationSeconds: 86_400 }, key);

  it("one partner's hold and lock are invisible to another partner's validate and check", async () => {
    expect((await hold(alice.secret, "Alice Held", "AHLD", OWNER)).status).to.equal(201);
    const reported = await post(
      "launches/report",
      {
        chain: "hardhat",
        launchpad: "pad",
        name: "Alice Bonded",
        ticker: "ABND",
        launcher: OWNER,
        tokenOrMint: "0xtoken",
      },
      alice.secret,
    );
    expect(reported.status, reported.text).to.equal(200);
    const bonded = await post(
      "events/bonded",
      { chain: "hardhat", launchpad: "pad", name: "Alice Bonded", ticker: "ABND", wasReserved: false },
      alice.secret,
    );
    expect(bonded.status, bonded.text).to.equal(200);

    // Alice's own rehearsal: both pairs protected for her launcher.
    expect(await validate(alice.secret, "Alice Held", "AHLD", EVM_OTHER)).to.include({
      decision: "block",
      reason: "active_reservation",
    });
    expect(await validate(alice.secret, "Alice Bonded", "ABND", EVM_OTHER)).to.include({
      decision: "block",
      reason: "bonding_lock",
    });
    // Bob sees free pairs: his validate allows, his check and the keyless check read available.
    for (const [name, ticker] of [
      ["Alice Held", "AHLD"],
      ["Alice Bonded", "ABND"],
    ] as const) {
      expect(await validate(bob.secret, name, ticker, EVM_OTHER)).to.include({
        decision: "allow",
        reason: "no_conflict",
      });
      const query = `name=${encodeURIComponent(name)}&ticker=${ticker}&launcher=${EVM_OTHER}`;
      expect(await check(query, bob.secret)).to.include({ status: "available", decision: "allow" });
      expect(await check(query)).to.include({ status: "available", decision: "allow" });
      expect(await check(query, alice.secret)).to.include({ decision: "block" });
    }
    // And Bob may hold Alice's pair for his own wallet: it is his own rehearsal.
    expect((await hold(bob.secret, "Alice Held", "AHLD", EVM_OTHER)).status).to.equal(201);
    expect(await validate(alice.secret, "Alice Held", "AHLD", EVM_OTHER)).to.include({ decision: "block" });
  });

  it("no partner can hold, prepare, report or lock a seeded scenario (403), and the scenarios read unchanged", async () => {
    for (const [name, ticker] of SCENARIOS) {
      const pair = { chain: "hardhat", name, ticker };
      const attempts = [
        post("reservations", { ...pair, launcher: OWNER, durationSeconds: 86_400 }, alice.secret),
        post("reservations/prepare", { ...pair, launcher: OWNER, durationSeconds: 86_400 }, bob.secret),
        post(
          "launches/report",
          { ...pair, launchpad: "pad", launcher: OWNER, tokenOrMint: "0xtoken" },
          alice.secret,
        ),
        post("events/bonded", { ...pair, launchpad: "pad", wasReserved: true }, bob.secret),
        post("events/milestone", { ...pair, launchpad: "pad", wasReserved: false }, alice.secret),
      ];
      for (const response of await Promise.all(attempts)) {
        expectEnvelope(response, 403, "sandbox_scenario_read_only");
      }
    }
    expect(await validate(bob.secret, "DuskRaven", "DUSK", OWNER)).to.include({
      decision: "allow",
      reason: "protection_lapsed",
    });
    expect(await validate(alice.secret, "ClearSky", "CLEAR", OWNER)).to.include({
      decision: "allow",
      reason: "guardian_cleared",
    });
    expect(await validate(alice.secret, "SandboxFox", "SFOX", OWNER)).to.include({ decision: "block" });
    const stored = await api.db.pool.query(
      `SELECT count(*)::int AS n FROM sandbox_holds WHERE identity_key = ANY($1)
       UNION ALL SELECT count(*)::int FROM identity_locks WHERE environment = 'sandbox' AND identity_key = ANY($1)`,
      [SCENARIOS.map(([name, ticker]) => `${name.toUpperCase()}::${ticker}`)],
    );
    expect(stored.rows.map((row) => row.n)).to.deep.equal([0, 0]);
  });

  it("the seeded scenarios read current after the clock passes every original window, without a restart", async () => {
    // Read once now (an old seed would be taken here), then move past the 90-day milestone lock.
    expect(await check(`name=IronWhale&ticker=IRON&launcher=${EVM_OTHER}`)).to.include({
      reason: "milestone_lock",
    });
    api.clock.set(Date.now() + 100 * DAY);
    try {
      const designated = SANDBOX_DESIGNATED_LAUNCHER.evm;
      expect(await check(`name=SandboxFox&ticker=SFOX&launcher=${designated}`)).to.include({
        status: "authorized",
        decision: "allow",
      });
      expect(await validate(alice.secret, "SandboxFox", "SFOX", EVM_OTHER)).to.include({
        decision: "block",
        reason: "active_reservation",
      });
      expect(await validate(bob.secret, "MoonBadger", "BADGER", EVM_OTHER)).to.include({
        decision: "block",
        reason: "bonding_lock",
      });
      expect(await validate(bob.secret, "IronWhale", "IRON", EVM_OTHER)).to.include({
        decision: "block",
        reason: "milestone_lock",
      });
      expect(await validate(alice.secret, "NightShade", "SHADE", EVM_OTHER)).to.include({
        decision: "block",
        reason: "bonding_lock",
      });
      expect(await validate(alice.secret, "VampCoin", "VAMP", designated)).to.include({
        decision: "block",
        reason: "graduated_block",
      });
      expect(await check(`name=DuskRaven&ticker=DUSK&launcher=${EVM_OTHER}`)).to.include({
        status: "expired",
        decision: "allow",
      });
    } finally {
      api.clock.set(Date.now());
    }
  });

  it("a fourth active sandbox hold for one wallet is refused; another partner's wallet count is its own", async () => {
    const wallet = "0x4444444444444444444444444444444444444444";
    for (const ticker of ["WAA", "WBB", "WCC"]) {
      const response = await hold(alice.secret, `Wallet ${ticker}`, ticker, wallet);
      expect(response.status, response.text).to.equal(201);
    }
    expectEnvelope(await hold(alice.secret, "Wallet Four", "WDD", wallet), 409, "reservation_limit_reached");
    const prepared = await post(
      "reservations/prepare",
      { chain: "hardhat", name: "Wallet Five", ticker: "WEE", launcher: wallet, durationSeconds: 86_400 },
      alice.secret,
    );
    expectEnvelope(prepared, 409, "reservation_limit_reached");
    // The same wallet in Bob's rehearsal holds nothing yet.
    expect((await hold(bob.secret, "Wallet Four", "WDD", wallet)).status).to.equal(201);
  });
});
