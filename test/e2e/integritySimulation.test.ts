// Decision integrity under hostile and careless partners, as a simulation on the local chains: creators reserve
// pairs on-chain with real wallets and pay, while production and sandbox partners act at once and at random
// (launch reports with any launcher, bonded and milestone events with any flag, sandbox holds, sandbox prepares
// and confirms, validations). After every round an invariant checker asks production validate about every live
// reservation: its creator never reads `block`, and a copycat wallet never reads `allow`. Refusals of the
// partners' requests are expected and not judged; only the decisions are. The run is seeded (SIMULATION_SEED).
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
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  let e2e: E2e;
  let production: Partner[];
  let sandbox: Partner[];
  let pairs: Pair[];
  let paid: Paid[] = [];
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
    const hash = await creator.signAndSend(reservation.transaction);
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
    it(`seed ${runSeed}: every paying creator stays allowed and every copycat refused while partners act at random`, async () => {
      seed = runSeed;
      random = seededRandom(runSeed);
      pairs = Array.from({ length: 8 }, () => uniquePair("Sim"));
      paid = [];
      violations = [];
      for (let round = 1; round <= ROUNDS; round += 1) {
        const actions: Promise<unknown>[] = [creatorReserves()];
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
      expect(paid.length, "creators paid for reservations during the run").to.be.greaterThan(2);
      expect(violations).to.deep.equal([]);
    });
  }
});
