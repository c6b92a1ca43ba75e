// Protection events reach every partner, end to end on the local chains: real wallets reserve on Hardhat and the
// Solana RPC, the real indexers mirror them, two workers race over one database (the e2e worker, which delivers
// webhooks, and a second one), and two partners' endpoints at a local receiver get what the dispatcher sends.
// identity.protected / identity.extended go to every production partner exactly once, whoever made the hold (a
// wallet on its own, or a partner's prepare), and carry no partner's private data; reservation.*, revenue.accrued
// and a lock's own event stay with the partner they belong to.
import { randomBytes } from "node:crypto";
import { expect } from "chai";
import { normalizeIdentity } from "../../core/fold";
import { RENEWAL_WINDOW_SECONDS } from "../../core/reservation";
import { issueKeeperCredential, setLaunchReporting } from "../../services/identity/keeperCredentials";
import { bindLaunchpad } from "../../services/partners/launchpads";
import { announceHoldsPass } from "../../services/reservations/holdAnnouncementPass";
import { startWorker, type Worker } from "../../worker";
import { Conformance } from "../api/support/conformance";
import { bearer, issueKey } from "../api/support/harness";
import { Receiver } from "../services/webhooks/support";
import {
  type ChainDriver,
  type ChainWallet,
  DAY,
  type E2e,
  partnerApi,
  prepared,
  startE2e,
  uniquePair,
  waitUntil,
} from "./support";

const OPERATOR = { actor: "test-operator", reason: "test" };

interface Envelope {
  id: string;
  type: string;
  data: Record<string, unknown>;
}

describe("e2e: protection events reach every partner, exactly once", function () {
  this.timeout(180_000);
  let e2e: E2e;
  let alice: ReturnType<typeof partnerApi>;
  let bob: { secret: string; partnerId: string };
  let racer: Worker;
  let conformance: Conformance;
  const receiver = new Receiver();

  before(async () => {
    await receiver.start();
    e2e = await startE2e();
    alice = partnerApi(e2e);
    bob = await issueKey(e2e.api, "production");
    for (const [path, secret] of [
      ["/alice", e2e.key.secret],
      ["/bob", bob.secret],
    ] as const) {
      const registered = await e2e.api.call({
        method: "POST",
        path: "/api/v1/webhooks",
        headers: bearer(secret),
        body: { url: receiver.url(path) },
      });
      expect(registered.status, registered.text).to.equal(201);
    }
    // A second worker on the same database races the e2e one over every pass (it delivers no webhooks itself).
    racer = startWorker({
      pool: e2e.db.pool,
      registries: e2e.registries,
      intervalMs: 50,
      now: e2e.clock.now,
      log: () => undefined,
    });
    conformance = new Conformance((await e2e.api.call({ path: "/api/v1/openapi" })).body as never);
  });
  after(async () => {
    await racer?.stop();
    await e2e?.stop();
    await receiver.stop();
  });

  const envelopes = (path: string): Envelope[] =>
    receiver.at(path).map((request) => JSON.parse(request.rawBody) as Envelope);
  /** The types a path received about one identity, in arrival order. */
  const about = (path: string, identityKey: string, reservationId?: string) =>
    envelopes(path)
      .filter(
        (envelope) =>
          envelope.data.identityKey === identityKey ||
          (envelope.data.reservation as { identityKey?: string } | undefined)?.identityKey === identityKey ||
          (reservationId !== undefined && envelope.data.reservationId === reservationId),
      )
      .map((envelope) => envelope.type)
      .sort();

  /** Both workers ran more passes, then every event is dispatched and every delivery answered. */
  async function settled(): Promise<void> {
    const deps = { pool: e2e.db.pool, now: e2e.clock.now };
    // Two more passes at once, as two replicas would run them, beside both running workers.
    await Promise.all([announceHoldsPass(deps), announceHoldsPass(deps)]);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await waitUntil(
      async () =>
        (
          await e2e.db.pool.query<{ n: number }>(
            `SELECT (SELECT count(*) FROM domain_events WHERE dispatched_at IS NULL)::int
                  + (SELECT count(*) FROM webhook_deliveries WHERE status <> 'succeeded')::int AS n`,
          )
        ).rows[0]?.n,
      (n) => n === 0,
      "every event delivered",
    );
  }

  const waitFor = (what: string, done: () => boolean) =>
    waitUntil(
      async () => done(),
      (ok) => ok,
      what,
    );

  /** The broadcast carries the hold as the public wallet list shows it, nothing of a partner. */
  function expectPublicHold(envelope: Envelope | undefined, wallet: ChainWallet, type: string): void {
    expect(envelope, type).to.not.equal(undefined);
    conformance.checkWebhookEvent(envelope as Envelope);
    const hold = (envelope as Envelope).data.hold as { launcher: string };
    expect(hold.launcher.toLowerCase()).to.equal(wallet.address.toLowerCase());
    const text = JSON.stringify(envelope);
    for (const secret of [e2e.key.partnerId, bob.partnerId, "revenueShare", "reservationId", "partnerRef"]) {
      expect(text).to.not.include(secret);
    }
  }

  const findIn = (path: string, type: string, identityKey: string) =>
    envelopes(path).find((envelope) => envelope.type === type && envelope.data.identityKey === identityKey);

  async function renewDirectly(driver: ChainDriver, wallet: ChainWallet, name: string, ticker: string) {
    const steps = await driver.registry.prepareTransaction({
      identity: normalizeIdentity(name, ticker),
      launcher: wallet.address,
      durationSeconds: DAY,
      partnerRef: `0x${"0".repeat(64)}`,
      kind: "renew",
      quote: await driver.registry.quote(DAY),
      secret: null,
    });
    if (steps === null) throw new Error("no renewal transaction");
    return wallet.pay(steps);
  }

  it("a reservation made on-chain without any prepare reaches both partners once, as identity.protected", async () => {
    for (const driver of [e2e.evm, e2e.solana]) {
      const wallet = await driver.newWallet();
      const pair = uniquePair("Direct");
      const { identityKey } = normalizeIdentity(pair.name, pair.ticker);
      await driver.reserveDirectly(wallet, pair.name, pair.ticker);
      await waitFor(
        `${driver.chain}: identity.protected at both endpoints`,
        () =>
          about("/alice", identityKey).includes("identity.protected") &&
          about("/bob", identityKey).includes("identity.protected"),
      );
      await settled();
      for (const path of ["/alice", "/bob"]) {
        expect(about(path, identityKey), `${driver.chain} ${path}`).to.deep.equal(["identity.protected"]);
        expectPublicHold(findIn(path, "identity.protected", identityKey), wallet, "identity.protected");
      }
    }
  });

  it("a reservation Alice prepared: she gets its reservation events, both get identity.protected, once each", async () => {
    const driver = e2e.evm;
    const wallet = await driver.newWallet();
    const pair = uniquePair("Prepared");
    const { identityKey } = normalizeIdentity(pair.name, pair.ticker);
    const reservation = await prepared(alice, { chain: driver.chain, ...pair, launcher: wallet.address });
    const hash = await wallet.pay(reservation);
    expect((await alice.submit(reservation.reservationId, hash)).status).to.equal(200);
    await alice.statusBecomes(reservation.reservationId, "confirmed");
    await waitFor(
      "the confirmation's events at both endpoints",
      () =>
        about("/alice", identityKey, reservation.reservationId).length >= 3 &&
        about("/bob", identityKey).length >= 1,
    );
    await settled();
    expect(about("/alice", identityKey, reservation.reservationId)).to.deep.equal(
      ["reservation.created", "identity.protected", "revenue.accrued"].sort(),
    );
    expect(about("/bob", identityKey, reservation.reservationId)).to.deep.equal(["identity.protected"]);
    expectPublicHold(findIn("/bob", "identity.protected", identityKey), wallet, "identity.protected");
    expect(JSON.stringify(envelopes("/bob"))).to.not.include(reservation.reservationId);
  });

  it("a lock Alice's bond report applied reaches Bob as identity.protected; the bond event stays Alice's", async () => {
    const wallet = await e2e.evm.newWallet();
    const pair = uniquePair("Locked");
    const identity = { chain: e2e.evm.chain, ...pair };
    const { identityKey } = normalizeIdentity(pair.name, pair.ticker);
    await bindLaunchpad(e2e.db.pool, "alice-pad", e2e.key.partnerId, OPERATOR);
    await setLaunchReporting(e2e.db.pool, e2e.key.keyId, true, OPERATOR);
    const post = (path: string, body: object, headers: Record<string, string> = {}) =>
      e2e.api.call({
        method: "POST",
        path: `/api/v1/${path}`,
        headers: { ...bearer(e2e.key.secret), ...headers },
        body,
      });
    // A block keeps the EVM mirror fresh (the local chain mines only on demand): a lock needs current data.
    await e2e.evm.test.mine({ blocks: 1 });
    await e2e.chainsFresh();
    const launched = await post("launches/report", {
      ...identity,
      launchpad: "alice-pad",
      launcher: wallet.address,
      tokenOrMint: `0x${randomBytes(20).toString("hex")}`,
    });
    expect(launched.status, launched.text).to.equal(200);
    const keeper = (await issueKeeperCredential(e2e.db.pool, e2e.key.partnerId, "watcher", OPERATOR))
      .credential;
    const bonded = await post(
      "events/bonded",
      { ...identity, launchpad: "alice-pad" },
      { "x-service-keeper": keeper },
    );
    expect(bonded.status, bonded.text).to.equal(200);
    await waitFor("the lock's protection at Bob's endpoint", () =>
      about("/bob", identityKey).includes("identity.protected"),
    );
    await settled();
    expect(about("/alice", identityKey)).to.deep.equal(
      ["launch.reported", "token.bonded", "identity.protected"].sort(),
    );
    expect(about("/bob", identityKey)).to.deep.equal(["identity.protected"]);
    const lock = findIn("/bob", "identity.protected", identityKey) as Envelope;
    conformance.checkWebhookEvent(lock);
    expect(lock.data).to.include({ source: "lock", kind: "bonded" });
    expect(JSON.stringify(lock)).to.not.include(e2e.key.partnerId);
  });

  it("an on-chain renewal reaches both once as identity.extended; the window's end reaches only its partner", async () => {
    const driver = e2e.evm;
    const direct = { wallet: await driver.newWallet(), pair: uniquePair("Renewed") };
    await driver.reserveDirectly(direct.wallet, direct.pair.name, direct.pair.ticker);
    const owned = { wallet: await driver.newWallet(), pair: uniquePair("Ending") };
    const reservation = await prepared(alice, {
      chain: driver.chain,
      ...owned.pair,
      launcher: owned.wallet.address,
    });
    await alice.submit(reservation.reservationId, await owned.wallet.pay(reservation));
    await alice.statusBecomes(reservation.reservationId, "confirmed");
    const directKey = normalizeIdentity(direct.pair.name, direct.pair.ticker).identityKey;
    const ownedKey = normalizeIdentity(owned.pair.name, owned.pair.ticker).identityKey;
    await waitFor("both holds announced", () =>
      [directKey, ownedKey].every((key) => about("/bob", key).includes("identity.protected")),
    );

    // Into the renewal window: the wallet renews on the registry itself, no prepare.
    await e2e.warp(DAY - RENEWAL_WINDOW_SECONDS + 600);
    await renewDirectly(driver, direct.wallet, direct.pair.name, direct.pair.ticker);
    await waitFor("the renewal at both endpoints", () =>
      ["/alice", "/bob"].every((path) => about(path, directKey).includes("identity.extended")),
    );
    await settled();
    for (const path of ["/alice", "/bob"]) {
      expect(about(path, directKey), path).to.deep.equal(["identity.extended", "identity.protected"]);
      expectPublicHold(findIn(path, "identity.extended", directKey), direct.wallet, "identity.extended");
    }

    // Past Alice's reservation's end: reservation.expired is hers alone, as its revenue.accrued was.
    await e2e.warp(DAY + 600);
    await alice.statusBecomes(reservation.reservationId, "expired");
    await waitFor("reservation.expired at Alice's endpoint", () =>
      about("/alice", ownedKey).includes("reservation.expired"),
    );
    await settled();
    expect(about("/alice", ownedKey, reservation.reservationId)).to.include.members([
      "reservation.created",
      "revenue.accrued",
      "reservation.expired",
      "identity.protected",
    ]);
    expect(about("/bob", ownedKey, reservation.reservationId)).to.deep.equal(["identity.protected"]);
  });
});
