// The webhook dispatcher against a real local receiver (the documented local-service http exception): outbox
// events fan out to the right endpoints and arrive signed so that an independent HMAC check, Stripe's SDK and
// the standardwebhooks package all accept them; the fixed retry schedule runs on a hand-moved clock to dead;
// replay keeps the id; redirects and timeouts fail; the receiver rule runs again at each claim; claims never
// send an attempt twice and a dead worker's lease runs out.
import { createHmac, randomBytes } from "node:crypto";
import { expect } from "chai";
import { Webhook } from "standardwebhooks";
import Stripe from "stripe";
import { createSecretBox } from "../../../core/secrets/secretBox";
import { verifyWebhookSignature } from "../../../core/webhook/signature";
import {
  DOMAIN_EVENT_TYPES,
  type WebhookOwner,
  webhookDispatcher,
  webhooksService,
} from "../../../services/webhooks";
import {
  claimDueDeliveries,
  DELIVERY_LEASE_MS,
  recordAttempts,
  releaseLeases,
} from "../../../services/webhooks/claims";
import { IDLE_CLAIM_INTERVAL_MS } from "../../../services/webhooks/dispatcher";
import { fanOutEvents } from "../../../services/webhooks/fanOut";
import { appendDomainEvents, type DomainEvent } from "../../../storage/domainEvents";
import { withTransaction } from "../../../storage/transaction";
import { metricsRegistry } from "../../../telemetry/metrics";
import { createTestDatabase, type TestDatabase } from "../../support/testDatabase";
import { sampleValue } from "../../telemetry/support";
import { ManualClock, Receiver, tableLookup } from "./support";

const stripe = new Stripe("sk_test_independent_verifier_only");
const ALICE: WebhookOwner = { partnerId: "partner_alice", environment: "sandbox" };
const BOB: WebhookOwner = { partnerId: "partner_bob", environment: "sandbox" };
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

interface Envelope {
  id: string;
  type: string;
  createdAt: string;
  data: Record<string, unknown>;
}

/** An HMAC check written from the spec alone: v1 = hex HMAC-SHA256(secret, "<t>.<raw body>"). */
function independentlyVerified(header: string, rawBody: string, secret: string): boolean {
  const parts = header.split(",").map((part) => part.split("=") as [string, string]);
  const t = parts.find(([key]) => key === "t")?.[1];
  const expected = createHmac("sha256", secret).update(`${t}.${rawBody}`).digest("hex");
  return parts.some(([key, value]) => key === "v1" && value === expected);
}

describe("webhooks: dispatcher", function () {
  this.timeout(60_000);
  let db: TestDatabase;
  const receiver = new Receiver();
  const box = createSecretBox(randomBytes(32));
  const dns: Record<string, string[]> = { "hooks.example.com": ["93.184.216.34"] };
  const lookup = tableLookup(dns);
  let clock: ManualClock;
  const lines: string[] = [];

  const service = () => webhooksService(db.pool, box, clock.now, { allowLocalReceivers: true, lookup });
  const dispatcher = (options: { timeoutMs?: number; perEndpoint?: number } = {}) =>
    webhookDispatcher({
      pool: db.pool,
      box,
      now: clock.now,
      receivers: { allowLocalReceivers: true, lookup },
      log: (line) => lines.push(line),
      ...options,
    });
  const run = async (instance = dispatcher()) => {
    await instance.pass();
    await instance.settle();
  };
  /** Passes until nothing is due now (one pass claims at most claim-ahead x the per-endpoint bound per endpoint). */
  const drain = async (instance = dispatcher()) => {
    for (let round = 0; round < 50; round++) {
      await run(instance);
      const due = await db.pool.query(
        "SELECT count(*)::int AS n FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at <= $1",
        [new Date(clock.ms)],
      );
      if (due.rows[0].n === 0) return;
    }
    throw new Error("deliveries still due after 50 passes");
  };
  const emit = (events: DomainEvent[]) =>
    withTransaction(db.pool, (client) => appendDomainEvents(client, events));
  const event = (type: DomainEvent["type"], owner: WebhookOwner | null, payload = {}): DomainEvent => ({
    type,
    environment: owner?.environment ?? "sandbox",
    partnerId: owner?.partnerId ?? null,
    payload,
  });
  const register = async (owner: WebhookOwner, path: string, events?: string[]) =>
    service().create(owner, { url: receiver.url(path), events });
  const delivery = async (id?: string) => {
    const { rows } = await db.pool.query(
      `SELECT id, status, attempt_count, failures_in_round, next_attempt_at, last_response_code, last_error
       FROM webhook_deliveries ${id === undefined ? "" : "WHERE id = $1"} ORDER BY seq`,
      id === undefined ? [] : [id],
    );
    return rows;
  };

  before(async () => {
    db = await createTestDatabase();
    await receiver.start();
  });
  after(async () => {
    await receiver.stop();
    await db?.close();
  });
  beforeEach(async () => {
    clock = new ManualClock(Date.now());
    receiver.received.length = 0;
    receiver.answers.clear();
    lines.length = 0;
    await db.pool.query("DELETE FROM webhook_endpoints; DELETE FROM domain_events");
  });

  it("delivers every event type signed so that an independent check, Stripe and Standard Webhooks accept it", async () => {
    const { endpoint, signingSecret } = await register(ALICE, "/all");
    await emit(DOMAIN_EVENT_TYPES.map((type) => event(type, ALICE, { identityKey: "FOX::FOX", type })));
    await drain();

    const arrived = receiver.at("/all");
    expect(arrived.map((request) => (JSON.parse(request.rawBody) as Envelope).type).sort()).to.deep.equal(
      [...DOMAIN_EVENT_TYPES].sort(),
    );
    const standard = new Webhook(signingSecret);
    for (const request of arrived) {
      const header = request.headers["x-service-signature"] as string;
      const envelope = JSON.parse(request.rawBody) as Envelope;
      expect(Object.keys(envelope)).to.deep.equal(["id", "type", "createdAt", "data"]);
      expect(envelope.data).to.deep.equal({ identityKey: "FOX::FOX", type: envelope.type });
      expect(request.headers["webhook-id"]).to.equal(envelope.id);
      expect(header).to.match(/^t=\d+,v1=[0-9a-f]{64}$/);
      expect(independentlyVerified(header, request.rawBody, signingSecret), envelope.type).to.equal(true);
      expect(stripe.webhooks.constructEvent(request.rawBody, header, signingSecret, 300)).to.deep.equal(
        envelope,
      );
      expect(standard.verify(request.rawBody, request.headers as Record<string, string>)).to.deep.equal(
        envelope,
      );
      expect(independentlyVerified(header, request.rawBody.replace("FOX", "F0X"), signingSecret)).to.equal(
        false,
      );
    }
    const rows = await delivery();
    expect(rows).to.have.length(DOMAIN_EVENT_TYPES.length);
    for (const row of rows)
      expect(row).to.include({ status: "succeeded", attempt_count: 1, last_response_code: 200 });
    const pending = await db.pool.query(
      "SELECT count(*)::int AS n FROM domain_events WHERE dispatched_at IS NULL",
    );
    expect(pending.rows[0].n).to.equal(0);
    const attempts = await db.pool.query("SELECT count(*)::int AS n FROM webhook_attempts");
    expect(attempts.rows[0].n).to.equal(DOMAIN_EVENT_TYPES.length);
    expect(endpoint.events).to.equal(null);
  });

  it("fans out by environment, partner, subscription and enabled state", async () => {
    await register(ALICE, "/alice");
    await register(BOB, "/bob", ["token.bonded"]);
    await register({ partnerId: ALICE.partnerId, environment: "production" }, "/alice-live");
    const paused = await register(ALICE, "/paused");
    await service().update(ALICE, paused.endpoint.id, { enabled: false });

    await emit([
      event("launch.blocked", ALICE),
      event("launch.blocked", BOB),
      event("token.bonded", BOB),
      event("identity.cleared", null),
      event("launch.authorized", { partnerId: ALICE.partnerId, environment: "production" }),
    ]);
    await run();
    const types = (path: string) =>
      receiver.at(path).map((request) => (JSON.parse(request.rawBody) as Envelope).type);
    expect(types("/alice").sort()).to.deep.equal(["identity.cleared", "launch.blocked"]);
    expect(types("/bob")).to.deep.equal(["token.bonded"]);
    expect(types("/alice-live")).to.deep.equal(["launch.authorized"]);
    expect(types("/paused")).to.deep.equal([]);
  });

  it("retries at 1 m, 5 m, 30 m, 2 h and 12 h on a moved clock, then the delivery is dead", async () => {
    receiver.answers.set("/fail", 500);
    const { signingSecret } = await register(ALICE, "/fail");
    await emit([event("reservation.expired", ALICE)]);
    const first = clock.ms;
    const attemptTimes: number[] = [];
    const instance = dispatcher();
    const counted = async () => {
      const text = await metricsRegistry.metrics();
      return [
        sampleValue(text, "webhook_attempts_total", { result: "failed" }) ?? 0,
        sampleValue(text, "webhook_attempts_total", { result: "dead" }) ?? 0,
        sampleValue(text, "webhook_dead_letters_total") ?? 0,
      ];
    };
    const countedBefore = await counted();

    await run(instance);
    attemptTimes.push(clock.ms);
    for (const waitMs of [MINUTE, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 12 * HOUR]) {
      clock.advance(waitMs - IDLE_CLAIM_INTERVAL_MS);
      await run(instance);
      expect(receiver.at("/fail"), "not before the schedule says").to.have.length(attemptTimes.length);
      // The next claim of a pass that fans out nothing comes once the idle claim interval has passed.
      clock.advance(IDLE_CLAIM_INTERVAL_MS);
      await run(instance);
      attemptTimes.push(clock.ms);
      expect(receiver.at("/fail")).to.have.length(attemptTimes.length);
    }
    expect(attemptTimes.map((at) => (at - first) / MINUTE)).to.deep.equal([0, 1, 6, 36, 156, 876]);
    const [row] = await delivery();
    expect(row).to.include({
      status: "dead",
      attempt_count: 6,
      last_response_code: 500,
      next_attempt_at: null,
    });
    expect(row.last_error).to.equal("answered 500");
    // The metrics: five failed attempts, then the dead one and its dead letter.
    const countedAfter = await counted();
    expect(countedAfter.map((value, index) => value - (countedBefore[index] as number))).to.deep.equal([
      5, 1, 1,
    ]);

    clock.advance(48 * HOUR);
    await run(instance);
    expect(receiver.at("/fail")).to.have.length(6);

    const ids = new Set(receiver.at("/fail").map((request) => request.headers["webhook-id"]));
    expect(ids.size).to.equal(1);
    receiver.at("/fail").forEach((request, index) => {
      const nowSeconds = Math.floor((attemptTimes[index] as number) / 1000);
      const header = request.headers["x-service-signature"] as string;
      expect(header.startsWith(`t=${nowSeconds},`)).to.equal(true);
      expect(verifyWebhookSignature(header, request.rawBody, signingSecret, { nowSeconds }).valid).to.equal(
        true,
      );
    });
  });

  it("replays a dead delivery with the same id and a fresh schedule", async () => {
    receiver.answers.set("/replay", 503);
    await register(ALICE, "/replay");
    await emit([event("launch.reported", ALICE)]);
    const instance = dispatcher();
    await run(instance);
    for (const waitMs of [MINUTE, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 12 * HOUR]) {
      clock.advance(waitMs);
      await run(instance);
    }
    const [dead] = await delivery();
    expect(dead.status).to.equal("dead");

    receiver.answers.set("/replay", 204);
    const replayed = await service().replay(ALICE, dead.id);
    expect(replayed).to.include({ id: dead.id, status: "pending" });
    clock.advance(IDLE_CLAIM_INTERVAL_MS);
    await run(instance);
    const last = receiver.at("/replay").at(-1);
    expect(last?.headers["webhook-id"]).to.equal(dead.id);
    expect((JSON.parse(last?.rawBody ?? "{}") as Envelope).id).to.equal(dead.id);
    expect((await delivery(dead.id))[0]).to.include({
      status: "succeeded",
      attempt_count: 7,
      last_response_code: 204,
    });

    await service().replay(ALICE, dead.id);
    clock.advance(IDLE_CLAIM_INTERVAL_MS);
    await run(instance);
    expect(receiver.at("/replay").at(-1)?.headers["webhook-id"]).to.equal(dead.id);
    const ids = await db.pool.query("SELECT count(*)::int AS n FROM webhook_deliveries");
    expect(ids.rows[0].n).to.equal(1);
  });

  it("does not follow a redirect: a 3xx is a failed attempt", async () => {
    receiver.answers.set("/moved", (response) => response.writeHead(307, { location: "/target" }).end());
    await register(ALICE, "/moved");
    await emit([event("identity.protected", ALICE)]);
    await run();
    expect(receiver.at("/target")).to.deep.equal([]);
    const [row] = await delivery();
    expect(row).to.include({ status: "pending", last_response_code: 307, failures_in_round: 1 });
    expect(row.last_error).to.match(/redirects are not followed/);
  });

  it("fails an attempt that gets no answer within the timeout, without holding up other endpoints", async () => {
    const held: Array<() => void> = [];
    receiver.answers.set("/slow", (response) => held.push(() => response.writeHead(200).end()));
    await register(ALICE, "/slow");
    await register(ALICE, "/fast");
    await emit([event("launch.blocked", ALICE)]);
    const instance = dispatcher({ timeoutMs: 1_500 });
    await instance.pass();
    // The fast endpoint's attempt is recorded while the slow one is still waiting for its answer.
    for (
      let waited = 0;
      receiver.at("/fast").length === 0 || (await delivery()).every((row) => row.status === "pending");
      waited++
    ) {
      expect(waited, "fast delivery recorded").to.be.below(200);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(receiver.at("/slow")).to.have.length(1);
    await instance.settle();
    for (const release of held) release();
    const rows = await delivery();
    const statuses = rows.map((row) => `${row.status}:${row.last_response_code}:${row.last_error}`).sort();
    expect(statuses).to.deep.equal(["pending:null:no answer within 1.5 s", "succeeded:200:null"]);
  });

  it("checks the receiver again at delivery: a name that now resolves to a private address is refused", async () => {
    const deliveredDns = { ...dns };
    const strict = webhookDispatcher({
      pool: db.pool,
      box,
      now: clock.now,
      receivers: { allowLocalReceivers: false, lookup: tableLookup(deliveredDns) },
      log: (line) => lines.push(line),
    });
    const hosted = webhooksService(db.pool, box, clock.now, { allowLocalReceivers: false, lookup });
    await hosted.create(ALICE, { url: "https://hooks.example.com/hook" });
    deliveredDns["hooks.example.com"] = ["93.184.216.34", "10.0.0.7"];
    await emit([event("launch.blocked", ALICE)]);
    await run(strict);
    const [row] = await delivery();
    expect(row).to.include({ status: "pending", attempt_count: 1, last_response_code: null });
    expect(row.last_error).to.include("(private)").and.include("10.0.0.7");
  });

  it("checks each claimed endpoint's receiver once per claim, and again at the next claim", async () => {
    const deliveredDns: Record<string, string[]> = { ...dns, "hooks.example.com": ["10.0.0.7"] };
    const asked: string[] = [];
    const answers = tableLookup(deliveredDns);
    const strict = webhookDispatcher({
      pool: db.pool,
      box,
      now: clock.now,
      receivers: {
        allowLocalReceivers: false,
        lookup: (hostname) => {
          asked.push(hostname);
          return answers(hostname);
        },
      },
      log: (line) => lines.push(line),
    });
    const hosted = webhooksService(db.pool, box, clock.now, { allowLocalReceivers: false, lookup });
    await hosted.create(ALICE, { url: "https://hooks.example.com/hook" });
    await emit([1, 2, 3].map((seq) => event("launch.blocked", ALICE, { seq })));
    await run(strict);
    expect(asked).to.deep.equal(["hooks.example.com"]);
    const refused = await delivery();
    expect(refused.map((row) => row.attempt_count)).to.deep.equal([1, 1, 1]);
    for (const row of refused) expect(row.last_error).to.include("(private)").and.include("10.0.0.7");

    // The retries' claim asks again, and sees the name's new answer.
    deliveredDns["hooks.example.com"] = ["10.0.0.8"];
    clock.advance(HOUR);
    await run(strict);
    expect(asked).to.deep.equal(["hooks.example.com", "hooks.example.com"]);
    for (const row of await delivery()) {
      expect(row.attempt_count).to.equal(2);
      expect(row.last_error).to.include("10.0.0.8");
    }
  });

  it("signs with both secrets during a rotation's grace window, then with the new one only", async () => {
    const { endpoint, signingSecret: old } = await register(ALICE, "/rotated");
    const rotated = await service().update(ALICE, endpoint.id, { rotateSecret: true });
    const fresh = rotated.signingSecret as string;
    await emit([event("token.graduated", ALICE)]);
    await run();
    const [request] = receiver.at("/rotated");
    const header = request?.headers["x-service-signature"] as string;
    const raw = request?.rawBody as string;
    expect(header.match(/v1=/g)).to.have.length(2);
    for (const secret of [old, fresh]) {
      expect(stripe.webhooks.constructEvent(raw, header, secret, 300)).to.have.property(
        "type",
        "token.graduated",
      );
      expect(new Webhook(secret).verify(raw, request?.headers as Record<string, string>)).to.have.property(
        "type",
      );
    }

    clock.advance(24 * HOUR + 1);
    await service().sendTest(ALICE, endpoint.id);
    await run();
    const later = receiver.at("/rotated")[1];
    const laterHeader = later?.headers["x-service-signature"] as string;
    expect(laterHeader.match(/v1=/g)).to.have.length(1);
    const nowSeconds = Math.floor(clock.ms / 1000);
    expect(verifyWebhookSignature(laterHeader, later?.rawBody ?? "", fresh, { nowSeconds }).valid).to.equal(
      true,
    );
    expect(verifyWebhookSignature(laterHeader, later?.rawBody ?? "", old, { nowSeconds }).valid).to.equal(
      false,
    );
  });

  it("sends a test event whatever the endpoint's subscription", async () => {
    const { endpoint } = await register(BOB, "/filtered", ["token.bonded"]);
    await service().sendTest(BOB, endpoint.id);
    await run();
    const [request] = receiver.at("/filtered");
    expect(JSON.parse(request?.rawBody ?? "{}")).to.nested.include({
      type: "webhook.test",
      "data.endpointId": endpoint.id,
    });
  });

  it("claims a new event's delivery at the next pass; what falls due without a fan-out waits for the idle claim interval", async () => {
    const { endpoint } = await register(ALICE, "/soon");
    const instance = dispatcher();
    await emit([event("launch.reported", ALICE)]);
    await run(instance);
    await emit([event("launch.blocked", ALICE)]);
    await run(instance);
    expect(receiver.at("/soon"), "each event sent at the pass that fanned it out").to.have.length(2);

    // A test event's delivery is written directly, not through the outbox.
    await service().sendTest(ALICE, endpoint.id);
    clock.advance(IDLE_CLAIM_INTERVAL_MS - 1);
    await run(instance);
    expect(receiver.at("/soon"), "no claim before the interval").to.have.length(2);
    clock.advance(1);
    await run(instance);
    expect(receiver.at("/soon")).to.have.length(3);
  });

  it("two dispatchers at once send each delivery once, within the per-endpoint bound", async () => {
    // The receiver answers late, so attempts overlap; it counts the requests it holds unanswered at once.
    let open = 0;
    let mostOpen = 0;
    receiver.answers.set("/shared", (response) => {
      open++;
      mostOpen = Math.max(mostOpen, open);
      setTimeout(() => {
        open--;
        response.writeHead(200).end();
      }, 20);
    });
    await register(ALICE, "/shared");
    await emit(Array.from({ length: 30 }, (_, index) => event("launch.authorized", ALICE, { index })));
    const one = dispatcher({ perEndpoint: 3 });
    const two = dispatcher({ perEndpoint: 3 });
    for (let round = 0; round < 40; round++) {
      await Promise.all([one.pass(), two.pass()]);
      // Claims ahead: one worker holds up to 4 x 3 leases on the endpoint, the other none meanwhile.
      const holders = await db.pool.query(
        "SELECT DISTINCT lease_holder FROM webhook_deliveries WHERE leased_until IS NOT NULL",
      );
      expect(holders.rowCount).to.be.at.most(1);
      await Promise.all([one.settle(), two.settle()]);
      if ((await delivery()).every((row) => row.status === "succeeded")) break;
    }
    const ids = receiver.at("/shared").map((request) => request.headers["webhook-id"]);
    expect(ids).to.have.length(30);
    expect(new Set(ids).size).to.equal(30);
    expect(mostOpen, "requests in flight to the endpoint at once").to.be.within(2, 3);
  });

  it("a worker claims ahead only on endpoints no other worker holds, and gives back what it did not send", async () => {
    await register(ALICE, "/ahead");
    await emit(Array.from({ length: 10 }, (_, index) => event("launch.authorized", ALICE, { index })));
    await fanOutEvents(db.pool, new Date(clock.ms), 10);
    const at = new Date(clock.ms);
    const limits = { limit: 100, perEndpoint: 2, aheadPerEndpoint: 8, leaseMs: DELIVERY_LEASE_MS, held: [] };
    const first = await claimDueDeliveries(db.pool, at, { ...limits, holder: "worker_a" });
    expect(first, "alone on the endpoint: up to 4 x 2").to.have.length(8);
    const second = await claimDueDeliveries(db.pool, at, { ...limits, holder: "worker_b" });
    expect(second, "another worker holds the endpoint beyond its bound").to.have.length(0);

    await releaseLeases(db.pool, first.slice(1));
    const third = await claimDueDeliveries(db.pool, at, { ...limits, holder: "worker_b" });
    expect(third, "shared: both together hold at most 2").to.have.length(1);
    const fourth = await claimDueDeliveries(db.pool, at, { ...limits, holder: "worker_a" });
    expect(fourth).to.have.length(0);

    // A stopping dispatcher gives back its queued claims at once, so nothing waits for a lease to run out.
    await releaseLeases(db.pool, [...first.slice(0, 1), ...third]);
    const instance = dispatcher();
    const held: Array<() => void> = [];
    receiver.answers.set("/ahead", (response) => held.push(() => response.writeHead(200).end()));
    await instance.pass();
    while (held.length < 4) await new Promise((resolve) => setTimeout(resolve, 5));
    const stopping = instance.stop();
    for (const answer of held) answer();
    await stopping;
    const { rows } = await db.pool.query(
      "SELECT status, (leased_until IS NOT NULL) AS leased, count(*)::int AS n FROM webhook_deliveries GROUP BY 1, 2 ORDER BY 1",
    );
    expect(rows).to.deep.equal([
      { status: "pending", leased: false, n: 6 },
      { status: "succeeded", leased: false, n: 4 },
    ]);
  });

  it("does not send a queued claim with less than half its lease left: it gives it back", async () => {
    await register(ALICE, "/stale");
    await emit(Array.from({ length: 3 }, (_, index) => event("launch.authorized", ALICE, { index })));
    const held: Array<() => void> = [];
    receiver.answers.set("/stale", (response) => held.push(() => response.writeHead(200).end()));
    const instance = dispatcher({ perEndpoint: 1 });
    await instance.pass();
    while (held.length < 1) await new Promise((resolve) => setTimeout(resolve, 5));
    // Two wait in the queue behind the one under way; their lease is more than half gone when a slot frees.
    clock.advance(DELIVERY_LEASE_MS / 2 + 1);
    for (const answer of held) answer();
    await instance.settle();
    expect(receiver.at("/stale")).to.have.length(1);
    const { rows } = await db.pool.query(
      "SELECT status, attempt_count, (leased_until IS NOT NULL) AS leased FROM webhook_deliveries ORDER BY seq",
    );
    expect(rows).to.deep.equal([
      { status: "succeeded", attempt_count: 1, leased: false },
      { status: "pending", attempt_count: 0, leased: false },
      { status: "pending", attempt_count: 0, leased: false },
    ]);
  });

  it("a worker that dies holding a delivery loses nothing: its lease runs out and another worker sends it", async () => {
    await register(ALICE, "/crash");
    await emit([event("milestone.verified", ALICE)]);
    await fanOutEvents(db.pool, new Date(clock.ms), 10);
    const survivor = dispatcher();

    // A worker claims it and is killed before sending.
    const [claimed] = await claimDueDeliveries(db.pool, new Date(clock.ms), {
      holder: "worker_that_dies",
      limit: 5,
      perEndpoint: 4,
      aheadPerEndpoint: 16,
      leaseMs: DELIVERY_LEASE_MS,
      held: [],
    });
    expect(claimed).to.not.equal(undefined);
    await run(survivor);
    expect(receiver.at("/crash"), "held by the dead worker's lease").to.deep.equal([]);

    clock.advance(DELIVERY_LEASE_MS + 1);
    await run(survivor);
    expect(receiver.at("/crash")).to.have.length(1);
    expect((await delivery())[0]).to.include({ status: "succeeded", attempt_count: 1 });

    // Were the dead worker to come back, its outcome would not overwrite the survivor's.
    const late = await recordAttempts(db.pool, [
      {
        claimed: claimed as NonNullable<typeof claimed>,
        attempt: {
          startedAt: new Date(clock.ms),
          durationMs: 1,
          responseCode: 500,
          error: "answered 500",
          failed: true,
          status: "pending",
          nextAttemptAt: new Date(clock.ms + MINUTE),
        },
      },
    ]);
    expect(late.size, "not recorded").to.equal(0);
    expect((await delivery())[0]).to.include({ status: "succeeded" });
  });
});
