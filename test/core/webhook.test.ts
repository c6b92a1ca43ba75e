import { expect } from "chai";
import fc from "fast-check";
import Stripe from "stripe";
import { generateWebhookSecret, signWebhook, verifyWebhookSignature } from "../../core/webhook/signature";

// Stripe's SDK verifies exactly the `t=<unix>,v1=<hex HMAC-SHA256 over "t.body">` scheme: an
// independent implementation to check ours against.
const stripe = new Stripe("sk_test_independent_verifier_only");

describe("webhook signatures", () => {
  const secret = generateWebhookSecret();
  const body = JSON.stringify({
    id: "dlv_1",
    type: "launch.blocked",
    createdAt: "2026-11-22T10:00:00Z",
    data: { a: 1 },
  });
  const now = Math.floor(Date.now() / 1000);

  it("formats the header as t=<unix>,v1=<64 lowercase hex>", () => {
    expect(signWebhook(secret, body, 1_700_000_000)).to.match(/^t=1700000000,v1=[0-9a-f]{64}$/);
    expect(secret).to.match(/^whsec_[A-Za-z0-9+/]{44}$/);
  });

  it("is accepted by Stripe's independent verifier, for any body", () => {
    fc.assert(
      fc.property(fc.json(), (json) => {
        // Stripe checks against its own clock: sign now, not when the file loaded (a long run passes 300 s).
        const header = signWebhook(secret, json, Math.floor(Date.now() / 1000));
        const event = stripe.webhooks.constructEvent(json, header, secret, 300);
        expect(event).to.deep.equal(JSON.parse(json));
      }),
      { numRuns: 50 },
    );
  });

  it("accepts a header produced by Stripe's SDK", () => {
    const header = stripe.webhooks.generateTestHeaderString({ payload: body, secret, timestamp: now });
    expect(verifyWebhookSignature(header, body, secret, { nowSeconds: now })).to.deep.equal({
      valid: true,
      reason: "ok",
    });
  });

  it("is rejected by both verifiers when the body, secret or timestamp is off", () => {
    const header = signWebhook(secret, body, now);
    const otherBody = body.replace('"a":1', '"a":2');
    const otherSecret = generateWebhookSecret();
    const shifted = header.replace(`t=${now}`, `t=${now + 1}`);
    for (const [rawBody, key, value] of [
      [otherBody, secret, header],
      [body, otherSecret, header],
      [body, secret, shifted],
    ] as const) {
      expect(verifyWebhookSignature(value, rawBody, key, { nowSeconds: now })).to.deep.equal({
        valid: false,
        reason: "bad_signature",
      });
      expect(() => stripe.webhooks.constructEvent(rawBody, value, key)).to.throw(/signature/i);
    }
  });

  it("signs the raw bytes: re-serialised JSON with the same meaning fails", () => {
    const header = signWebhook(secret, body, now);
    const reserialised = JSON.stringify(JSON.parse(body), null, 2);
    expect(verifyWebhookSignature(header, reserialised, secret, { nowSeconds: now }).reason).to.equal(
      "bad_signature",
    );
    expect(verifyWebhookSignature(header, Buffer.from(body), secret, { nowSeconds: now }).reason).to.equal(
      "ok",
    );
  });

  it("tolerates 300 s in both directions and rejects beyond, including timestamps in the future", () => {
    const header = signWebhook(secret, body, now);
    for (const offset of [-300, 0, 300]) {
      expect(
        verifyWebhookSignature(header, body, secret, { nowSeconds: now + offset }).reason,
        `${offset}`,
      ).to.equal("ok");
    }
    for (const offset of [-301, 301, 86_400]) {
      expect(
        verifyWebhookSignature(header, body, secret, { nowSeconds: now + offset }).reason,
        `${offset}`,
      ).to.equal("timestamp_out_of_tolerance");
    }
  });

  it("accepts any matching v1 among several (secret rotation) and ignores unknown schemes", () => {
    const header = signWebhook(secret, body, now);
    const stale = signWebhook(generateWebhookSecret(), body, now).split(",")[1] as string;
    expect(
      verifyWebhookSignature(`${header},${stale},v0=abc`, body, secret, { nowSeconds: now }).reason,
    ).to.equal("ok");
    expect(verifyWebhookSignature(`t=${now},${stale}`, body, secret, { nowSeconds: now }).reason).to.equal(
      "bad_signature",
    );
  });

  it("refuses an empty secret and a clock that cannot be compared, instead of accepting", () => {
    const header = signWebhook(secret, body, now);
    expect(() => signWebhook("", body, now)).to.throw(RangeError, /secret/);
    expect(() => verifyWebhookSignature(header, body, "", { nowSeconds: now })).to.throw(
      RangeError,
      /secret/,
    );
    expect(() => verifyWebhookSignature(header, body, secret, { nowSeconds: Number.NaN })).to.throw(
      RangeError,
    );
    expect(() => verifyWebhookSignature(header, body, secret, { toleranceSeconds: -1 })).to.throw(RangeError);
  });

  it("reports a missing or malformed header as malformed_header", () => {
    const v1 = (signWebhook(secret, body, now).split(",")[1] as string).slice(3);
    for (const header of [
      undefined,
      "",
      `v1=${v1}`,
      `t=${now}`,
      `t=${now},v1=${v1.toUpperCase()}`,
      `t=${now},v1=${v1.slice(2)}`,
      `t=abc,v1=${v1}`,
      `t=${now},t=${now},v1=${v1}`,
      `t=${now};v1=${v1}`,
    ]) {
      expect(
        verifyWebhookSignature(header, body, secret, { nowSeconds: now }).reason,
        String(header),
      ).to.equal("malformed_header");
    }
  });
});
