// Every event type of the spec's table, caused for real (partner calls over HTTP, the guardian service, the
// reconciler, a chain whose indexer stopped) and delivered by the dispatcher to local receivers: each delivery
// verifies with its endpoint's secret and its envelope matches the OpenAPI schema of its type; each partner
// receives only its own events and the public ones, and sandbox and production never see each other's.
import { createHmac } from "node:crypto";
import { expect } from "chai";
import { registryCatalogue } from "../../../chains/catalogue";
import { createSecretBox } from "../../../core/secrets/secretBox";
import { blockIdentity, clearIdentity } from "../../../services/identity/guardian";
import { issueKeeperCredential, setLaunchReporting } from "../../../services/identity/keeperCredentials";
import { sampleChainPostures } from "../../../services/mirror";
import { bindLaunchpad } from "../../../services/partners/launchpads";
import { reconcilePass } from "../../../services/reservations/reconcile";
import { DOMAIN_EVENT_TYPES, webhookDispatcher } from "../../../services/webhooks";
import { Receiver, tableLookup } from "../../services/webhooks/support";
import { Conformance } from "../support/conformance";
import { bearer, issueKey, startTestApi, TEST_HOSTS, type TestApi } from "../support/harness";
import { offlineManifest } from "../support/offlineManifest";
import { CHAINS, EVM_OTHER, EVM_OWNER, mirrorReservation, setCheckpoints } from "./identity/support";

const OPERATOR = { actor: "test-operator", reason: "test" };
const SANDBOX = TEST_HOSTS.sandbox[0];
const HOUR = 3_600_000;
const MANIFEST = offlineManifest();

interface Envelope {
  id: string;
  type: string;
  createdAt: string;
  data: Record<string, unknown>;
}

/** The spec's check, written independently: v1 = hex HMAC-SHA256(secret, "<t>.<raw body>"). */
function signedBy(header: string, rawBody: string, secret: string): boolean {
  const parts = header.split(",").map((part) => part.split("=") as [string, string]);
  const t = parts.find(([key]) => key === "t")?.[1];
  const expected = createHmac("sha256", secret).update(`${t}.${rawBody}`).digest("hex");
  return parts.some(([key, value]) => key === "v1" && value === expected);
}

describe("webhook events: every type caused for real, delivered signed, to its audience only", function () {
  this.timeout(120_000);
  const lookup = tableLookup({});
  const receiver = new Receiver();
  const registries = registryCatalogue(MANIFEST);
  let api: TestApi;
  let conformance: Conformance;
  const secrets = new Map<string, string>();
  /** Every envelope each receiver path got, after verification. */
  const delivered = new Map<string, Envelope[]>();

  const types = (path: string) => (delivered.get(path) ?? []).map((envelope) => envelope.type).sort();

  before(async () => {
    await receiver.start();
    api = await startTestApi({
      deps: {
        registries,
        decisions: { chains: CHAINS },
        webhooks: { allowLocalReceivers: true, lookup },
      },
    });
    await setCheckpoints(api.db.pool);
    conformance = new Conformance((await api.call({ path: "/api/v1/openapi" })).body as never);

    const alice = await issueKey(api, "production");
    const bob = await issueKey(api, "production");
    const aliceSandbox = await issueKey(api, "sandbox", { partnerId: alice.partnerId });
    const carol = await issueKey(api, "sandbox");
    for (const [path, key] of [
      ["/alice", alice],
      ["/bob", bob],
      ["/alice-sandbox", aliceSandbox],
      ["/carol", carol],
    ] as const) {
      const response = await api.call({
        method: "POST",
        path: "/api/v1/webhooks",
        headers: bearer(key.secret),
        body: { url: receiver.url(path) },
      });
      expect(response.status, response.text).to.equal(201);
      secrets.set(path, (response.body as { signingSecret: string }).signingSecret);
    }

    // Alice (production): validations, a launch report, bond and milestone reports.
    const post = (path: string, body: object, headers: Record<string, string> = {}) =>
      api.call({
        method: "POST",
        path: `/api/v1/${path}`,
        headers: { ...bearer(alice.secret), ...headers },
        body,
      });
    const ok = (response: { status: number; text: string }) =>
      expect(response.status, response.text).to.equal(200);
    const identity = { chain: "hardhat", name: "Event Fox", ticker: "EVFX" };
    await mirrorReservation(api.db.pool, { ...identity, launcher: EVM_OWNER, expiresInSeconds: 3600 });
    await bindLaunchpad(api.db.pool, "fox-pad", alice.partnerId, OPERATOR);
    ok(await post("launches/validate", { ...identity, launcher: EVM_OWNER, launchpad: "fox-pad" }));
    ok(await post("launches/validate", { ...identity, launcher: EVM_OTHER, launchpad: "fox-pad" }));
    await setLaunchReporting(api.db.pool, alice.keyId, true, OPERATOR);
    ok(
      await post("launches/report", {
        ...identity,
        launchpad: "fox-pad",
        launcher: EVM_OWNER,
        tokenOrMint: "0xf0",
      }),
    );
    const keeper = (await issueKeeperCredential(api.db.pool, alice.partnerId, "watcher", OPERATOR))
      .credential;
    for (const kind of ["bonded", "milestone"]) {
      ok(await post(`events/${kind}`, { ...identity, launchpad: "fox-pad" }, { "x-service-keeper": keeper }));
    }

    // The guardian (operator): a graduated block, and a mistaken block cleared.
    await blockIdentity(
      api.db.pool,
      { environment: "production", identityKey: "GRADUATE::GRAD", graduated: true },
      OPERATOR,
    );
    await blockIdentity(api.db.pool, { environment: "production", identityKey: "MISTAKE::MSTK" }, OPERATOR);
    await clearIdentity(api.db.pool, { environment: "production", identityKey: "MISTAKE::MSTK" }, OPERATOR);

    // Carol (sandbox): a reservation prepared, sandbox-confirmed, then nearing and past its end (the reconciler).
    const prepared = await api.call({
      method: "POST",
      path: "/api/v1/reservations/prepare",
      host: SANDBOX,
      headers: bearer(carol.secret),
      body: {
        chain: "hardhat",
        name: "Sandbox Owl",
        ticker: "OWL",
        launcher: EVM_OTHER,
        durationSeconds: 86400,
      },
    });
    expect(prepared.status, prepared.text).to.equal(201);
    const confirmed = await api.call({
      method: "POST",
      path: "/api/v1/reservations/sandbox-confirm",
      host: SANDBOX,
      headers: bearer(carol.secret),
      body: { reservationId: (prepared.body as { reservationId: string }).reservationId },
    });
    ok(confirmed);
    const expiresAt = Date.parse((confirmed.body as { expiresAt: string }).expiresAt);
    await reconcilePass({ pool: api.db.pool, registries, now: () => new Date(expiresAt - HOUR) });
    await reconcilePass({ pool: api.db.pool, registries, now: () => new Date(expiresAt + 1000) });

    // hardhat's indexer stops advancing: the chain degrades; it catches up again: the chain recovers.
    const sample = () => sampleChainPostures(api.db.pool, { now: new Date(), boundSeconds: 60, dwellMs: 0 });
    await sample();
    await setCheckpoints(api.db.pool, 3600, [CHAINS[0] as (typeof CHAINS)[number]]);
    expect(await sample()).to.deep.equal([{ chain: "hardhat", announced: "degraded" }]);
    await setCheckpoints(api.db.pool, 0);
    expect(await sample()).to.deep.equal([{ chain: "hardhat", announced: "recovered" }]);

    const dispatcher = webhookDispatcher({
      pool: api.db.pool,
      box: createSecretBox(api.masterKey),
      now: Date.now,
      receivers: { allowLocalReceivers: true, lookup },
      log: () => undefined,
    });
    for (let round = 0; ; round++) {
      expect(round, "deliveries still pending after 50 passes").to.be.below(50);
      await dispatcher.pass();
      await dispatcher.settle();
      const { rows } = await api.db.pool.query(
        "SELECT (SELECT count(*) FROM domain_events WHERE dispatched_at IS NULL)::int + (SELECT count(*) FROM webhook_deliveries WHERE status <> 'succeeded')::int AS n",
      );
      if (rows[0].n === 0) break;
    }
    for (const request of receiver.received) {
      const secret = secrets.get(request.path) as string;
      expect(signedBy(String(request.headers["x-service-signature"]), request.rawBody, secret)).to.equal(
        true,
      );
      const envelope = JSON.parse(request.rawBody) as Envelope;
      delivered.set(request.path, [...(delivered.get(request.path) ?? []), envelope]);
    }
  });
  after(async () => {
    await api?.close();
    await receiver.stop();
  });

  it("delivers every type of the spec's table at least once", () => {
    const seen = new Set([...delivered.values()].flat().map((envelope) => envelope.type));
    expect([...DOMAIN_EVENT_TYPES].filter((type) => !seen.has(type))).to.deep.equal([]);
  });

  it("every delivered envelope matches the OpenAPI schema of its type", () => {
    const all = [...delivered.values()].flat();
    expect(all.length).to.be.greaterThan(20);
    for (const envelope of all) conformance.checkWebhookEvent(envelope);
  });

  it("a partner receives its own events and the public ones", () => {
    expect(types("/alice")).to.deep.equal(
      [
        "launch.authorized",
        "launch.blocked",
        "identity.blocked_attempt",
        "launch.reported",
        "token.bonded",
        "identity.protected",
        "milestone.verified",
        "identity.extended",
        "token.graduated",
        "identity.protected",
        "identity.cleared",
        "chain.degraded",
        "chain.degraded",
      ].sort(),
    );
    expect(types("/carol")).to.deep.equal(
      [
        "reservation.created",
        "identity.protected",
        "revenue.accrued",
        "reservation.expiring",
        "reservation.expired",
        "chain.degraded",
        "chain.degraded",
      ].sort(),
    );
  });

  it("another partner of the same environment receives only the public events", () => {
    expect(types("/bob")).to.deep.equal(
      [
        // Alice's bond and milestone locks protect EVENTFOX against Bob's launches too (identity-level events).
        "identity.protected",
        "identity.extended",
        "token.graduated",
        "identity.protected",
        "identity.cleared",
        "chain.degraded",
        "chain.degraded",
      ].sort(),
    );
    // Of Alice's EVENTFOX activity, Bob hears only the protection: not her validations, report or lock events.
    const aboutFox = (delivered.get("/bob") ?? []).filter((envelope) =>
      JSON.stringify(envelope).includes("EVENTFOX"),
    );
    expect(aboutFox.map((envelope) => envelope.type).sort()).to.deep.equal([
      "identity.extended",
      "identity.protected",
    ]);
  });

  it("sandbox and production never see each other's events, even of the same partner", () => {
    // Alice's sandbox endpoint: neither her production events nor Carol's sandbox ones; only chain health.
    expect(types("/alice-sandbox")).to.deep.equal(["chain.degraded", "chain.degraded"]);
    expect(JSON.stringify(delivered.get("/alice"))).to.not.include("SANDBOXOWL");
  });

  it("chain.degraded says which transition happened, on which chain and why", () => {
    const chainEvents = (delivered.get("/alice") ?? []).filter(
      (envelope) => envelope.type === "chain.degraded",
    );
    expect(chainEvents.map((envelope) => envelope.data.state)).to.deep.equal(["degraded", "recovered"]);
    expect(chainEvents[0]?.data).to.include({ chain: "hardhat", reason: "mirror_behind" });
    expect(chainEvents[1]?.data).to.include({ chain: "hardhat", reason: null });
    expect(chainEvents[1]?.data.degradedSince).to.equal(chainEvents[0]?.data.since);
  });
});
