// A sandbox key's signingSecret over real HTTP: the sandbox's deliveries to the key's partner verify with it
// (Stripe's SDK on X-Service-Signature) beside the endpoint's own secret; another partner's secret, a rotated-out
// key's secret and the partner's production deliveries do not carry it.
import { expect } from "chai";
import Stripe from "stripe";
import { createSecretBox } from "../../../core/secrets/secretBox";
import { webhookDispatcher } from "../../../services/webhooks";
import { Receiver, tableLookup } from "../../services/webhooks/support";
import { bearer, issueKey, startTestApi, TEST_HOSTS, type TestApi } from "../support/harness";
import { emlMessages, tokenMailedTo } from "../support/mailbox";

const SANDBOX = TEST_HOSTS.sandbox[0];
const stripe = new Stripe("sk_test_independent_verifier_only");

interface SandboxKey {
  apiKey: string;
  signingSecret: string;
  partnerId: string;
}

describe("sandbox key signingSecret: signs the sandbox's webhook deliveries to its partner", function () {
  this.timeout(60_000);
  const lookup = tableLookup({});
  const receiver = new Receiver();
  let api: TestApi;

  before(async () => {
    await receiver.start();
    api = await startTestApi({ deps: { webhooks: { allowLocalReceivers: true, lookup } } });
  });
  after(async () => {
    await api.close();
    await receiver.stop();
  });

  const signUp = async (email: string): Promise<SandboxKey> => {
    const response = await api.call({
      method: "POST",
      path: "/api/v1/sandbox/keys",
      host: SANDBOX,
      body: { organization: "Signing Pad", email },
    });
    expect(response.status, response.text).to.equal(201);
    return response.body as SandboxKey;
  };
  const register = async (key: string, path: string, host?: string): Promise<string> => {
    const response = await api.call({
      method: "POST",
      path: "/api/v1/webhooks",
      ...(host === undefined ? {} : { host }),
      headers: bearer(key),
      body: { url: receiver.url(path) },
    });
    expect(response.status, response.text).to.equal(201);
    return (response.body as { id: string }).id;
  };
  /** Sends a webhook.test to the endpoint and delivers it; the request the receiver got. */
  const deliverTest = async (key: string, endpointId: string, path: string, host?: string) => {
    const before = receiver.at(path).length;
    const sent = await api.call({
      method: "POST",
      path: "/api/v1/webhooks/test",
      ...(host === undefined ? {} : { host }),
      headers: bearer(key),
      body: { endpointId },
    });
    expect(sent.status, sent.text).to.equal(202);
    const dispatcher = webhookDispatcher({
      pool: api.db.pool,
      box: createSecretBox(api.masterKey),
      now: Date.now,
      receivers: { allowLocalReceivers: true, lookup },
      log: () => undefined,
    });
    await dispatcher.pass();
    await dispatcher.settle();
    const received = receiver.at(path);
    expect(received).to.have.length(before + 1);
    return received.at(-1) as NonNullable<ReturnType<typeof receiver.at>[number]>;
  };
  const verifiesWith = (request: { rawBody: string; headers: Record<string, unknown> }, secret: string) => {
    try {
      stripe.webhooks.constructEvent(
        request.rawBody,
        String(request.headers["x-service-signature"]),
        secret,
        300,
      );
      return true;
    } catch {
      return false;
    }
  };
  const v1Count = (request: { headers: Record<string, unknown> }) =>
    String(request.headers["x-service-signature"])
      .split(",")
      .filter((part) => part.startsWith("v1=")).length;

  it("verifies the partner's sandbox deliveries; another partner's secret does not", async () => {
    const alice = await signUp("sign-alice@example.com");
    const carol = await signUp("sign-carol@example.com");
    expect(alice.signingSecret).to.match(/^svc_sigsec_/);
    const endpointId = await register(alice.apiKey, "/alice", SANDBOX);
    const request = await deliverTest(alice.apiKey, endpointId, "/alice", SANDBOX);
    expect(verifiesWith(request, alice.signingSecret)).to.equal(true);
    expect(verifiesWith(request, carol.signingSecret)).to.equal(false);
    // The endpoint's own secret signs too, and the sandbox key's secret adds exactly one v1.
    expect(v1Count(request)).to.equal(2);
    // The Standard Webhooks header carries the endpoint's secret only (one signature).
    expect(String(request.headers["webhook-signature"]).split(" ")).to.have.length(1);
  });

  it("a rotated key's new secret signs at once and the old one no longer does", async () => {
    const email = "sign-rotate@example.com";
    const before = await signUp(email);
    const verified = await api.call({
      method: "POST",
      path: "/api/v1/partners/verify-email",
      body: { token: tokenMailedTo(emlMessages(api.mailDir), email) },
    });
    expect(verified.status, verified.text).to.equal(200);
    const endpointId = await register(before.apiKey, "/rotate", SANDBOX);
    const rotated = await api.call({
      method: "POST",
      path: "/api/v1/sandbox/keys",
      host: SANDBOX,
      headers: { ...bearer(before.apiKey), "x-service-rotate": "1" },
      body: { email },
    });
    expect(rotated.status, rotated.text).to.equal(201);
    const after = rotated.body as SandboxKey;
    expect(after.signingSecret).to.not.equal(before.signingSecret);
    const request = await deliverTest(after.apiKey, endpointId, "/rotate", SANDBOX);
    expect(verifiesWith(request, after.signingSecret)).to.equal(true);
    expect(verifiesWith(request, before.signingSecret)).to.equal(false);
  });

  it("the partner's production deliveries do not carry its sandbox secret", async () => {
    const sandbox = await signUp("sign-prod@example.com");
    const production = await issueKey(api, "production", { partnerId: sandbox.partnerId });
    const endpointId = await register(production.secret, "/production");
    const request = await deliverTest(production.secret, endpointId, "/production");
    expect(v1Count(request)).to.equal(1);
    expect(verifiesWith(request, sandbox.signingSecret)).to.equal(false);
  });
});
