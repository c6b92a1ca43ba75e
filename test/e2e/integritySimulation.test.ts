// Decision integrity under hostile and careless partners, as a simulation on the local chains: creators reserve
// pairs on-chain with real wallets and pay, while production and sandbox partners act at once and at random
// (launch reports with any launcher, bonded and milestone events with any flag, sandbox holds, sandbox prepares
// and confirms, validations), and a production partner prepares a pair for a wallet it never pays for, then
// reports that wallet's launch and a bond or milestone. After every round an invariant checker asks production
// validate about every live reservation: its creator never reads `block`, and a copycat wallet never reads
// `allow`; at the end, no lock has the reserved length (60 or 90 days) without a confirmed reservation (or sandbox
// hold) of its launcher. Refusals of the partners' requests are expected and not judged; only the decisions and the
// locks are. The run is seeded (SIMULATION_SEED).
import { expect } from "chai";
import { issueKeeperCredential, setLaunchReporting } from "../../services/identity/keeperCredentials";
import { bindLaunchpad } from "../../services/partners/launchpads";
import { bearer, issueKey } from "../api/support/harness";
import type { HttpResponse } from "../api/support/http";
import {
  type ChainDriver,
  type ChainWallet,
  type E2e,
  type PreparedReservation,
  partnerApi,
  startE2e,
  uniquePair,
} from "./support";

const OPERATOR = { actor: "simulation", reason: "integrity simulation" };
const ROUNDS = 12;
const ACTIONS_PER_ROUND = 6;
const PARTNERS = 3;

/** A small seeded generator (mulberry32), so a failing run can be replayed with its seed. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

interface Partner {
  secret: string;
  keeper?: string;
  launchpad: string;
}

interface Pair {
  name: string;
  ticker: string;
}

/** A creator's confirmed, live on-chain reservation. */
interface Paid {
  driver: ChainDriver;
  pair: Pair;
  creator: ChainWallet;
}

describe("e2e: integrity simulation (many partners at once, invariants after every round)", function () {
  this.timeout(600_000);
  let seed = 0;
  let random: () => number = Math.random;
  // The unpaid launches draw from their own generator, so the other actions of a seed stay as they were.
  let unpaidRandom: () => number = Math.random;
  const pickWith = <T>(draw: () => number, items: readonly T[]): T =>
    items[Math.floor(draw() * items.length)] as T;
  const pick = <T>(items: readonly T[]): T => pickWith(random, items);
  let e2e: E2e;
  let production: Partner[];
  let sandbox: Partner[];
  let pairs: Pair[];
  let paid: Paid[] = [];
  let unpaidLocks = 0;
  let violations: string[] = [];

  before(async () => {
    e2e = await startE2e();
    production = [];
    sandbox = [];
    for (let index = 0; index < PARTNERS; index += 1) {
      const live = await issueKey(e2e.api, "production", { rateLimitPerMinute: 2_000 });
      await setLaunchReporting(e2e.db.pool, live.keyId, true, OPERATOR);
      const keeper = (await issueKeeperCredential(e2e.db.pool, live.partnerId, "watcher", OPERATOR))
        .credential;
      await bindLaunchpad(e2e.db.pool, `simpad-live-${index}`, live.partnerId, OPERATOR);
      production.push({ secret: live.secret, keeper, launchpad: `simpad-live-${index}` });
      const test = await issueKey(e2e.api, "sandbox");
      sandbox.push({ secret: test.secret, launchpad: `simpad-sbx-${index}` });
    }
  });
  after(async () => e2e?.stop());

  const post = (partner: Partner, path: string, body: object, headers: Record<string, string> = {}) =>
    e2e.api.call({
      method: "POST",
      path: `/api/v1${path}`,
      headers: { ...bearer(partner.secret), ...headers },
      body,
    });

  const driverOf = () => pick([e2e.evm, e2e.solana]);
  const isPaid = (driver: ChainDriver, pair: Pair) =>
    paid.some((entry) => entry.driver === driver && entry.pair === pair);

  /** A creator reserves a free pair on-chain and pays; it is live once the service confirms it. */
  async function creatorReserves(): Promise<void> {
    const driver = driverOf();
    const pair = pick(pairs);
    if (isPaid(driver, pair)) return;
    const creator = await driver.newWallet();
    const api = partnerApi({ ...e2e, key: { ...e2e.key, secret: pick(production).secret } });
    const response = await api.prepare({ chain: driver.chain, ...pair, launcher: creator.address });
    // Another partner's lock or report may legitimately make a pair unavailable to prepare: then nobody paid.
    if (response.status !== 201) return;
    const reservation = response.body as PreparedReservation;
    const hash = await creator.pay(reservation);
    await api.submit(reservation.reservationId, hash);
    const confirmed = await api.statusBecomes(reservation.reservationId, "confirmed");
    expect(confirmed.status).to.equal("confirmed");
    paid.push({ driver, pair, creator });
  }

  /** One random partner action; its answer is not judged (refusals are expected), only what it leaves behind. */
  async function partnerActs(): Promise<HttpResponse | undefined> {
    const driver = driverOf();
    const pair = pick(pairs);
    const someone = await driver.newWallet();
    const holder = paid.find((entry) => entry.driver === driver && entry.pair === pair)?.creator;
    const launcher = holder && random() < 0.3 ? holder.address : someone.address;
    const isLive = random() < 0.6;
    const partner = isLive ? pick(production) : pick(sandbox);
    // Sometimes a partner claims another partner's launchpad id.
    const launchpad = random() < 0.2 ? pick([...production, ...sandbox]).launchpad : partner.launchpad;
    const keeper: Record<string, string> = partner.keeper ? { "x-service-keeper": partner.keeper } : {};
    const base = { chain: driver.chain, launchpad, name: pair.name, ticker: pair.ticker };
    switch (Math.floor(random() * 6)) {
      case 0:
        return post(partner, "/launches/report", { ...base, launcher, tokenOrMint: someone.address });
      case 1:
        return post(partner, "/events/bonded", { ...base, wasReserved: random() < 0.5 }, keeper);
      case 2:
        return post(partner, "/events/milestone", { ...base, wasReserved: random() < 0.5 }, keeper);
      case 3:
        return post(pick(sandbox), "/reservations", {
          chain: driver.chain,
          name: pair.name,
          ticker: pair.ticker,
          launcher,
          durationSeconds: 86_400,
        });
      case 4: {
        const sandboxPartner = pick(sandbox);
        const prepare = await post(sandboxPartner, "/reservations/prepare", {
          chain: driver.chain,
          name: pair.name,
          ticker: pair.ticker,
          launcher,
          durationSeconds: 86_400,
        });
        const reservationId = (prepare.body as { reservationId?: string } | undefined)?.reservationId;
        if (prepare.status !== 201 || reservationId === undefined) return prepare;
        return post(sandboxPartner, "/reservations/sandbox-confirm", { reservationId });
      }
      default:
        return post(partner, "/launches/validate", { ...base, launcher });
    }
  }

  /**
   * A production partner prepares a pair for a fresh wallet, never pays, and reports that wallet's launch and a
   * bond or milestone while the prepare lives: a prepare is no reservation, so the lock may only be the short one.
   */
  async function unpaidLaunch(): Promise<HttpResponse | undefined> {
    const draw = <T>(items: readonly T[]) => pickWith(unpaidRandom, items);
    const driver = draw([e2e.evm, e2e.solana]);
    const pair = draw(pairs);
    const partner = draw(production);
    const lockPath = draw(["/events/bonded", "/events/milestone"]);
    const wallet = await driver.newWallet();
    const base = { chain: driver.chain, launchpad: partner.launchpad, name: pair.name, ticker: pair.ticker };
    const prepare = await post(partner, "/reservations/prepare", {
      chain: driver.chain,
      name: pair.name,
      ticker: pair.ticker,
      launcher: wallet.address,
      durationSeconds: 86_400,
    });
    if (prepare.status !== 201) return prepare;
    const launch = await post(partner, "/launches/report", {
      ...base,
      launcher: wallet.address,
      tokenOrMint: wallet.address,
    });
    if (launch.status !== 200) return launch;
    const lock = await post(partner, lockPath, base, { "x-service-keeper": partner.keeper as string });
    if (lock.status === 200) unpaidLocks += 1;
    return lock;
  }

  /**
   * No lock of the run has the reserved length unless its launcher held a confirmed reservation (or sandbox hold)
   * by then. Checked once at the end: lock rows are never removed.
   */
  async function checkLockLengths(): Promise<void> {
    const { rows } = await e2e.db.pool.query<{
      environment: string;
      identity_key: string;
      chain: string;
      kind: string;
      authorized_launcher: string;
      applied_at: Date;
    }>(
      `SELECT l.environment, l.identity_key, l.chain, l.kind, l.authorized_launcher, l.applied_at FROM identity_locks l
        WHERE l.expires_at - l.applied_at >= CASE l.kind WHEN 'bonded' THEN interval '60 days' ELSE interval '90 days' END
          AND NOT EXISTS (
            SELECT 1 FROM chain_reservations r
             WHERE l.environment = 'production' AND r.chain = l.chain
               AND r.normalized_name || '::' || r.normalized_ticker = l.identity_key
               AND lower(r.launcher) = lower(l.authorized_launcher)
               AND r.reserved_at <= l.applied_at + interval '60 seconds')
          AND NOT EXISTS (
            SELECT 1 FROM sandbox_holds h
             WHERE l.environment = 'sandbox' AND h.partner_id = l.partner_id AND h.chain = l.chain
               AND h.identity_key = l.identity_key AND lower(h.launcher) = lower(l.authorized_launcher)
               AND h.starts_at <= l.applied_at + interval '60 seconds')`,
    );
    for (const lock of rows) {
      violations.push(
        `seed ${seed}: a ${lock.environment} ${lock.kind} lock applied at ${lock.applied_at.toISOString()} of ${lock.identity_key} on ${lock.chain} for ${lock.authorized_launcher} has the reserved length without a confirmed reservation`,
      );
    }
  }

  /** Every live reservation: its creator is never blocked, a copycat is never allowed (production validate). */
  async function checkInvariants(round: number): Promise<void> {
    const checker = production[0] as Partner;
    for (const { driver, pair, creator } of paid) {
      const copycat = await driver.newWallet();
      for (const [who, launcher] of [
        ["creator", creator.address],
        ["copycat", copycat.address],
      ] as const) {
        const response = await post(checker, "/launches/validate", {
          chain: driver.chain,
          launchpad: checker.launchpad,
          name: pair.name,
          ticker: pair.ticker,
          launcher,
        });
        const { decision, reason } = (response.body ?? {}) as { decision?: string; reason?: string };
        const broken = who === "creator" ? decision === "block" : decision === "allow";
        if (response.status !== 200 || broken) {
          violations.push(
            `round ${round} (seed ${seed}): ${who} of ${pair.name}/${pair.ticker} on ${driver.chain} got ${response.status} ${decision ?? response.text} (${reason})`,
          );
        }
      }
    }
  }

  // SIMULATION_SEED replays one run; the default seeds include runs that broke the previous code.
  const seeds = process.env.SIMULATION_SEED ? [Number(process.env.SIMULATION_SEED)] : [20261123, 1, 7];
  for (const runSeed of seeds) {
    it(`seed ${runSeed}: every paying creator stays allowed, every copycat refused and no lock long without a confirmed reservation while partners act at random`, async () => {
      seed = runSeed;
      random = seededRandom(runSeed);
      unpaidRandom = seededRandom(runSeed + 1);
      pairs = Array.from({ length: 8 }, () => uniquePair("Sim"));
      paid = [];
      unpaidLocks = 0;
      violations = [];
      for (let round = 1; round <= ROUNDS; round += 1) {
        const actions: Promise<unknown>[] = [creatorReserves(), unpaidLaunch()];
        for (let index = 0; index < ACTIONS_PER_ROUND; index += 1) actions.push(partnerActs());
        const settled = await Promise.allSettled(actions);
        const crashed = settled.filter((result) => result.status === "rejected");
        expect(crashed.map((result) => String((result as PromiseRejectedResult).reason))).to.deep.equal([]);
        for (const result of settled) {
          const answer = (result as PromiseFulfilledResult<HttpResponse | undefined>).value;
          if (answer !== undefined && answer.status >= 500) {
            violations.push(
              `round ${round} (seed ${seed}): a partner request answered ${answer.status} ${answer.text}`,
            );
          }
        }
        await checkInvariants(round);
      }
      await checkLockLengths();
      expect(paid.length, "creators paid for reservations during the run").to.be.greaterThan(2);
      expect(unpaidLocks, "locks reported on launches whose prepare was never paid").to.be.greaterThan(0);
      expect(violations).to.deep.equal([]);
    });
  }
});
