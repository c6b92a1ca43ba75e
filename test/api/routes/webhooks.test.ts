// The webhook endpoints API over HTTP: registration (secret shown once, sealed at rest), listing, PATCH
// (toggle, rotate, re-subscribe), DELETE, the 404 rule for unknown and foreign ids, partner and environment
// isolation, delivery history paging, test events and replays.
import { expect } from "chai";
import { DOMAIN_EVENT_TYPES } from "../../../storage/domainEvents";
import { tableLookup } from "../../services/webhooks/support";
import { bearer, expectEnvelope, issueKey, startTestApi, type TestApi } from "../support/harness";

interface Endpoint {
  id: string;
  url: string;
  events: string[] | null;
  enabled: boolean;
  signingSecret?: string;
  previousSecretExpiresAt: string | null;
}

describe("api: webhooks", () => {
  let api: TestApi;
  let alice: { secret: string; partnerId: string };
  let bob: { secret: string; partnerId: string };
  let aliceLive: { secret: string; partnerId: string };

  const call = (key: { secret: string }, method: string, path: string, body?: unknown) =>
    api.call({
      method,
      path: `/api${path}`,
      headers: bearer(key.secret),
      ...(body === undefined ? {} : { body }),
    });
  const register = async (key: { secret: string }, body: unknown) => {
    const response = await call(key, "POST", "/v1/webhooks", body);
    expect(response.status, response.text).to.equal(201);
    return response.body as Endpoint;
  };

  before(async () => {
    api = await startTestApi({
      deps: {
        webhooks: {
          allowLocalReceivers: false,
          lookup: tableLookup({
            "hooks.example.com": ["93.184.216.34"],
            "other.example.com": ["2606:4700::1111"],
          }),
        },
      },
    });
    alice = await issueKey(api, "sandbox");
    bob = await issueKey(api, "sandbox");
    aliceLive = await issueKey(api, "production", { partnerId: alice.partnerId });
  });
  after(async () => api.close());

  it("registers an endpoint: 201 with the secret once, sealed at rest, every type when events is omitted", async () => {
    const endpoint = await register(alice, { url: "https://hooks.example.com/service" });
    expect(endpoint.id).to.match(/^ep_[0-9a-f]{24}$/);
    expect(endpoint).to.include({ url: "https://hooks.example.com/service", enabled: true, events: null });
    expect(endpoint.signingSecret).to.match(/^whsec_[A-Za-z0-9+/]{44}$/);

    const { rows } = await api.db.pool.query("SELECT secret_sealed FROM webhook_endpoints WHERE id = $1", [
      endpoint.id,
    ]);
    expect(rows[0].secret_sealed).to.match(/^svcbox1\./);
    expect(rows[0].secret_sealed).to.not.include((endpoint.signingSecret as string).slice(6));

    const list = await call(alice, "GET", "/v1/webhooks");
    const listed = (list.body as { endpoints: Endpoint[] }).endpoints.find((row) => row.id === endpoint.id);
    expect(listed).to.not.have.property("signingSecret");
  });

  it("subscribes to the listed types, and refuses unknown names listing the valid ones", async () => {
    const endpoint = await register(alice, {
      url: "https://other.example.com/",
      events: ["launch.blocked", "reservation.created"],
    });
    expect(endpoint.events).to.deep.equal(["launch.blocked", "reservation.created"]);

    const refused = await call(alice, "POST", "/v1/webhooks", {
      url: "https://hooks.example.com/",
      events: ["launch.blocked", "launch.exploded"],
    });
    expectEnvelope(refused, 400, "invalid_request");
    const error = (
      refused.body as { error: { message: string; details: { validEvents: string[]; unknown: string[] } } }
    ).error;
    expect(error.message).to.include('"launch.exploded"').and.include("reservation.expiring");
    expect(error.details.unknown).to.deep.equal(["launch.exploded"]);
    expect(error.details.validEvents).to.deep.equal([...DOMAIN_EVENT_TYPES]);

    expectEnvelope(
      await call(alice, "POST", "/v1/webhooks", { url: "https://hooks.example.com/", events: [] }),
      400,
      "invalid_request",
    );
    expectEnvelope(await call(alice, "POST", "/v1/webhooks", {}), 400, "invalid_request");
    expectEnvelope(
      await call(alice, "POST", "/v1/webhooks", { url: "https://hooks.example.com/", extra: 1 }),
      400,
      "invalid_request",
    );
  });

  it("PATCH toggles, re-subscribes and rotates the secret with a grace window", async () => {
    const endpoint = await register(alice, { url: "https://hooks.example.com/patch" });
    const disabled = await call(alice, "PATCH", `/v1/webhooks/${endpoint.id}`, { enabled: false });
    expect(disabled.status, disabled.text).to.equal(200);
    expect(disabled.body).to.include({ enabled: false }).and.not.have.property("signingSecret");

    const resubscribed = await call(alice, "PATCH", `/v1/webhooks/${endpoint.id}`, {
      events: ["token.bonded"],
    });
    expect((resubscribed.body as Endpoint).events).to.deep.equal(["token.bonded"]);
    const everything = await call(alice, "PATCH", `/v1/webhooks/${endpoint.id}`, {
      events: null,
      enabled: true,
    });
    expect(everything.body).to.include({ events: null, enabled: true });

    const rotated = await call(alice, "PATCH", `/v1/webhooks/${endpoint.id}`, { rotateSecret: true });
    expect(rotated.status, rotated.text).to.equal(200);
    const body = rotated.body as Endpoint;
    expect(body.signingSecret)
      .to.match(/^whsec_/)
      .and.not.equal(endpoint.signingSecret);
    const graceHours = (Date.parse(body.previousSecretExpiresAt as string) - Date.now()) / 3_600_000;
    expect(graceHours).to.be.within(23.9, 24);

    expectEnvelope(await call(alice, "PATCH", `/v1/webhooks/${endpoint.id}`, {}), 400, "invalid_request");
    const moved = await call(alice, "PATCH", `/v1/webhooks/${endpoint.id}`, { url: "https://10.1.2.3/" });
    expectEnvelope(moved, 400, "invalid_request");
    expect(moved.body).to.have.nested.property("error.details.rule", "private");
  });

  it("PATCH and DELETE answer 404 webhook_not_found for unknown, malformed and other partners' ids", async () => {
    const endpoint = await register(alice, { url: "https://hooks.example.com/mine" });
    const unknown = `ep_${"0".repeat(24)}`;
    for (const id of [unknown, "nonsense", endpoint.id]) {
      const caller = id === endpoint.id ? bob : alice;
      expectEnvelope(
        await call(caller, "PATCH", `/v1/webhooks/${id}`, { enabled: false }),
        404,
        "webhook_not_found",
      );
      expectEnvelope(await call(caller, "DELETE", `/v1/webhooks/${id}`), 404, "webhook_not_found");
    }
    // The same partner's production key does not reach its sandbox endpoint either.
    expectEnvelope(await call(aliceLive, "DELETE", `/v1/webhooks/${endpoint.id}`), 404, "webhook_not_found");
    const { rows } = await api.db.pool.query("SELECT enabled FROM webhook_endpoints WHERE id = $1", [
      endpoint.id,
    ]);
    expect(rows).to.deep.equal([{ enabled: true }]);

    const deleted = await call(alice, "DELETE", `/v1/webhooks/${endpoint.id}`);
    expect(deleted.status).to.equal(200);
    expect(deleted.body).to.include({ id: endpoint.id, deleted: true });
    expectEnvelope(await call(alice, "DELETE", `/v1/webhooks/${endpoint.id}`), 404, "webhook_not_found");
    expectEnvelope(
      await call(alice, "PATCH", `/v1/webhooks/${endpoint.id}`, { enabled: true }),
      404,
      "webhook_not_found",
    );
  });

  it("each partner lists only its own endpoints of the key's environment", async () => {
    const bobs = await register(bob, { url: "https://hooks.example.com/bob" });
    const live = await register(aliceLive, { url: "https://hooks.example.com/live" });
    const ids = async (key: { secret: string }) =>
      ((await call(key, "GET", "/v1/webhooks")).body as { endpoints: Endpoint[] }).endpoints.map(
        (row) => row.id,
      );
    expect(await ids(bob)).to.deep.equal([bobs.id]);
    expect(await ids(aliceLive)).to.deep.equal([live.id]);
    expect(await ids(alice))
      .to.not.include(bobs.id)
      .and.not.include(live.id);
    expectEnvelope(await api.call({ path: "/api/v1/webhooks" }), 401, "unauthorized");
  });

  it("test events and replays: 202 with the delivery, 404 for another partner's endpoint or delivery", async () => {
    const endpoint = await register(bob, { url: "https://hooks.example.com/test", events: ["token.bonded"] });
    const sent = await call(bob, "POST", "/v1/webhooks/test", { endpointId: endpoint.id });
    expect(sent.status, sent.text).to.equal(202);
    const delivery = sent.body as { id: string; status: string; type: string; attemptCount: number };
    expect(delivery).to.include({ status: "pending", type: "webhook.test", attemptCount: 0 });
    expect(delivery.id).to.match(/^msg_[0-9a-f]{32}$/);

    expectEnvelope(
      await call(alice, "POST", "/v1/webhooks/test", { endpointId: endpoint.id }),
      404,
      "webhook_not_found",
    );
    expectEnvelope(
      await call(alice, "POST", `/v1/webhooks/deliveries/${delivery.id}/replay`),
      404,
      "delivery_not_found",
    );
    expectEnvelope(
      await call(bob, "POST", "/v1/webhooks/deliveries/msg_nope/replay"),
      404,
      "delivery_not_found",
    );

    await api.db.pool.query(
      "UPDATE webhook_deliveries SET status = 'dead', next_attempt_at = NULL WHERE id = $1",
      [delivery.id],
    );
    const replayed = await call(bob, "POST", `/v1/webhooks/deliveries/${delivery.id}/replay`);
    expect(replayed.status, replayed.text).to.equal(202);
    expect(replayed.body).to.include({ id: delivery.id, status: "pending" });
  });

  it("pages the delivery history newest first, filtered by endpoint and status", async () => {
    const owner = await issueKey(api, "sandbox");
    const first = await register(owner, { url: "https://hooks.example.com/a" });
    const second = await register(owner, { url: "https://hooks.example.com/b" });
    const ids: string[] = [];
    for (const endpoint of [first, second, first, first, second]) {
      ids.push(
        ((await call(owner, "POST", "/v1/webhooks/test", { endpointId: endpoint.id })).body as { id: string })
          .id,
      );
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const query: string = `/v1/webhooks/deliveries?limit=2${cursor === null ? "" : `&cursor=${cursor}`}`;
      const page = (await call(owner, "GET", query)).body as {
        rows: { id: string }[];
        nextCursor: string | null;
      };
      expect(page.rows.length).to.be.at.most(2);
      seen.push(...page.rows.map((row) => row.id));
      cursor = page.nextCursor;
    } while (cursor !== null);
    expect(seen).to.deep.equal([...ids].reverse());

    const onlyFirst = (
      await call(owner, "GET", `/v1/webhooks/deliveries?endpointId=${first.id}&status=pending`)
    ).body as { rows: { endpointId: string }[] };
    expect(onlyFirst.rows).to.have.length(3);
    expect(onlyFirst.rows.every((row) => row.endpointId === first.id)).to.equal(true);
    const none = (await call(owner, "GET", "/v1/webhooks/deliveries?status=dead")).body as {
      rows: unknown[];
    };
    expect(none.rows).to.deep.equal([]);
    expectEnvelope(await call(owner, "GET", "/v1/webhooks/deliveries?cursor=bogus"), 400, "invalid_request");
    expectEnvelope(await call(owner, "GET", "/v1/webhooks/deliveries?status=lost"), 400, "invalid_request");
    const others = (await call(bob, "GET", `/v1/webhooks/deliveries?endpointId=${first.id}`)).body as {
      rows: unknown[];
    };
    expect(others.rows).to.deep.equal([]);
  });
});
