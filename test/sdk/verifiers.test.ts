// verifyDecision against the published decision vectors and a real decision, and verifyWebhook against
// signatures made by the service's own (node:crypto) signer, the Standard Webhooks headers and tampering.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "chai";
import { signWebhook } from "../../core/webhook/signature";
import { standardWebhookSignature } from "../../core/webhook/standardSignature";
import {
  type PublicKeyEntry,
  SdkConfigError,
  signTestWebhook,
  verifyDecision,
  verifyWebhook,
  type WebhookEvent,
  WebhookVerificationError,
} from "../../sdk/src";

interface VectorCase {
  id: string;
  decision: Record<string, unknown>;
  options: {
    environment: "sandbox" | "production";
    now: string;
    skewSeconds?: number;
    expect?: { launchpadId?: string; chain?: string; launcher?: string };
  };
  expected: { valid: boolean; reason: string };
}

const vectors = JSON.parse(readFileSync(join(__dirname, "..", "vectors", "decision-v1.json"), "utf8")) as {
  keys: PublicKeyEntry[];
  cases: VectorCase[];
};

async function rejection(promise: Promise<unknown>): Promise<WebhookVerificationError> {
  try {
    await promise;
  } catch (error) {
    expect(error).to.be.instanceOf(WebhookVerificationError);
    return error as WebhookVerificationError;
  }
  throw new Error("expected a WebhookVerificationError");
}

describe("sdk: verifyDecision", () => {
  it(`answers every published decision vector as expected (${vectors.cases.length} cases)`, async () => {
    const wrong: string[] = [];
    for (const vector of vectors.cases) {
      const result = await verifyDecision(vector.decision, vectors.keys, {
        now: new Date(vector.options.now),
        ...(vector.options.skewSeconds === undefined ? {} : { skewSeconds: vector.options.skewSeconds }),
        expect: { environment: vector.options.environment, ...vector.options.expect },
      });
      if (result.valid !== vector.expected.valid || result.reason !== vector.expected.reason) {
        wrong.push(`${vector.id}: ${result.reason}, expected ${vector.expected.reason}`);
      }
    }
    expect(wrong).to.deep.equal([]);
  });

  it("checks the nonce and the identity it was given; the spec's reasons otherwise", async () => {
    const ok = vectors.cases.find((vector) => vector.id === "ok-allow") as VectorCase;
    const verify = (expectMore: object, decision: unknown = ok.decision) =>
      verifyDecision(decision, vectors.keys, {
        now: new Date(ok.options.now),
        expect: { environment: "production", ...expectMore },
      });
    expect(await verify({ nonce: "n-42", identityKey: "MOONBADGER::BADGER" })).to.deep.equal({
      valid: true,
      reason: "ok",
    });
    expect((await verify({ nonce: "n-43" })).reason).to.equal("nonce_mismatch");
    expect((await verify({ identityKey: "OTHER::OTH" })).reason).to.equal("identity_mismatch");
    expect((await verify({}, "not a decision")).reason).to.equal("malformed");
    expect((await verify({}, { ...ok.decision, signature: undefined })).reason).to.equal("no_signature");
  });

  it("throws SdkConfigError for invalid options (never an answer that could accept)", async () => {
    const ok = vectors.cases[0] as VectorCase;
    for (const options of [
      { expect: { environment: "staging" as never } },
      { expect: { environment: "production" as const }, skewSeconds: -1 },
      { expect: { environment: "production" as const }, now: Number.NaN },
    ]) {
      let thrown: unknown;
      await verifyDecision(ok.decision, vectors.keys, options).catch((error) => {
        thrown = error;
      });
      expect(thrown).to.be.instanceOf(SdkConfigError);
    }
  });
});

describe("sdk: verifyWebhook and signTestWebhook", () => {
  const secret = "whsec_c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0LXNlY3JldC0x";
  const event = {
    id: "dlv_1",
    type: "launch.reported",
    createdAt: "2026-11-25T10:00:00.000Z",
    data: { identityKey: "EXAMPLE::EXMPL" },
  } as unknown as WebhookEvent;
  const body = JSON.stringify(event);
  // Read per test: the suite may run long after this file was loaded.
  const clock = () => Math.floor(Date.now() / 1000);

  it("accepts the service's own signature over the raw body (string, Buffer, Uint8Array, ArrayBuffer)", async () => {
    const now = clock();
    const headers = { "X-Service-Signature": signWebhook(secret, body, now) };
    const bytes = new TextEncoder().encode(body);
    for (const raw of [body, Buffer.from(body), bytes, bytes.buffer.slice(0)]) {
      expect(await verifyWebhook(raw, headers, secret)).to.deep.equal(event);
    }
    expect(await verifyWebhook(body, new Headers(headers), secret)).to.deep.equal(event);
  });

  it("accepts the Standard Webhooks headers when X-Service-Signature is absent", async () => {
    const now = clock();
    const headers = {
      "webhook-id": "dlv_1",
      "webhook-timestamp": String(now),
      "webhook-signature": `v1,AAAA ${standardWebhookSignature(secret, "dlv_1", now, body)}`,
    };
    expect((await verifyWebhook(body, headers, secret)).id).to.equal("dlv_1");
    const tampered = { ...headers, "webhook-id": "dlv_2" };
    expect((await rejection(verifyWebhook(body, tampered, secret))).reason).to.equal("bad_signature");
  });

  it("refuses a parsed object with a message that says to pass the raw body", async () => {
    const now = clock();
    const headers = { "x-service-signature": signWebhook(secret, body, now) };
    const error = await rejection(verifyWebhook(JSON.parse(body), headers, secret));
    expect(error.reason).to.equal("not_raw_body");
    expect(error.message)
      .to.match(/raw request body/)
      .and.match(/express\.raw/);
  });

  it("refuses a tampered body, another secret, a stale or future time, a missing or malformed header", async () => {
    const now = clock();
    const header = signWebhook(secret, body, now);
    const reason = async (raw: string, headers: Record<string, string>, key = secret) =>
      (await rejection(verifyWebhook(raw, headers, key))).reason;
    expect(await reason(body.replace("EXMPL", "EXMPI"), { "x-service-signature": header })).to.equal(
      "bad_signature",
    );
    expect(await reason(body, { "x-service-signature": header }, "whsec_other")).to.equal("bad_signature");
    for (const t of [now - 301, now + 301]) {
      expect(await reason(body, { "x-service-signature": signWebhook(secret, body, t) })).to.equal(
        "timestamp_out_of_tolerance",
      );
    }
    expect(await reason(body, {})).to.equal("malformed_header");
    expect(await reason(body, { "x-service-signature": "t=1,v1=zz" })).to.equal("malformed_header");
    const old = signWebhook(secret, body, now - 3000);
    expect(
      (await verifyWebhook(body, { "x-service-signature": old }, secret, { toleranceSeconds: 3600 })).id,
    ).to.equal("dlv_1");
  });

  it("signTestWebhook signs as the service does: verifyWebhook and the node:crypto signer agree", async () => {
    const now = clock();
    const signed = await signTestWebhook(event, secret, { timestampSeconds: now });
    expect(signed.headers["x-service-signature"]).to.equal(signWebhook(secret, signed.body, now));
    expect(signed.headers["webhook-signature"]).to.equal(
      standardWebhookSignature(secret, "dlv_1", now, signed.body),
    );
    expect(await verifyWebhook(signed.body, signed.headers, secret)).to.deep.equal(event);
    const plain = await signTestWebhook(event, "my-test-secret");
    expect(plain.headers).to.not.have.property("webhook-signature");
    expect((await verifyWebhook(plain.body, plain.headers, "my-test-secret")).type).to.equal(
      "launch.reported",
    );
  });
});
