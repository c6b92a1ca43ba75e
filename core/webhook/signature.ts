// Webhook signatures: `X-Service-Signature: t=<unix>,v1=<hex>`, v1 = lowercase hex HMAC-SHA256 with the
// endpoint secret over `<t>.<raw body>` (the same scheme as Stripe's, so its SDK verifies ours).
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

export const WEBHOOK_SIGNATURE_HEADER = "X-Service-Signature";
export const WEBHOOK_TOLERANCE_SECONDS = 300;
export const WEBHOOK_SECRET_PREFIX = "whsec_";

export type WebhookVerificationReason =
  | "ok"
  | "malformed_header"
  | "timestamp_out_of_tolerance"
  | "bad_signature";

export interface WebhookVerificationResult {
  valid: boolean;
  reason: WebhookVerificationReason;
}

export interface WebhookVerifyOptions {
  /** Unix seconds; defaults to the current time. */
  nowSeconds?: number;
  /** Allowed distance between `t` and now, in both directions. */
  toleranceSeconds?: number;
}

/**
 * A new endpoint signing secret (shown to the partner once, stored sealed): `whsec_` and 33 random bytes in
 * standard base64 (44 characters, no padding), the form Standard Webhooks and Svix verifiers decode into their
 * key. X-Service-Signature keys its HMAC with the whole string, as Stripe's verifier does.
 */
export function generateWebhookSecret(): string {
  return `${WEBHOOK_SECRET_PREFIX}${randomBytes(33).toString("base64")}`;
}

function hmacHex(secret: string, timestamp: number, rawBody: string | Uint8Array): string {
  if (secret.length === 0)
    throw new RangeError("The webhook signing secret is empty; load the endpoint's secret.");
  return createHmac("sha256", secret).update(`${timestamp}.`).update(rawBody).digest("hex");
}

/** The header value for `rawBody` (the exact bytes that will be sent) signed at `timestamp` (unix seconds). */
export function signWebhook(secret: string, rawBody: string | Uint8Array, timestamp: number): string {
  if (!Number.isSafeInteger(timestamp) || timestamp < 0) {
    throw new RangeError(`Webhook timestamp must be whole unix seconds (got ${timestamp}).`);
  }
  return `t=${timestamp},v1=${hmacHex(secret, timestamp, rawBody)}`;
}

interface ParsedHeader {
  timestamp: number;
  signatures: string[];
}

/** `t` and every `v1` of a header; unknown schemes are ignored, as Stripe does, for future versions. */
function parseHeader(header: string): ParsedHeader | null {
  let timestamp: number | null = null;
  const signatures: string[] = [];
  for (const item of header.split(",")) {
    const separator = item.indexOf("=");
    if (separator < 0) return null;
    const key = item.slice(0, separator).trim();
    const value = item.slice(separator + 1).trim();
    if (key === "t") {
      if (timestamp !== null || !/^\d{1,12}$/.test(value)) return null;
      timestamp = Number(value);
    } else if (key === "v1") {
      if (!/^[0-9a-f]{64}$/.test(value)) return null;
      signatures.push(value);
    }
  }
  return timestamp === null || signatures.length === 0 ? null : { timestamp, signatures };
}

function constantTimeHexEqual(left: string, right: string): boolean {
  return timingSafeEqual(Buffer.from(left, "hex"), Buffer.from(right, "hex"));
}

/**
 * Verifies a header against the raw body bytes (verify before parsing the JSON). Rejects a timestamp
 * more than the tolerance away from now in either direction; compares in constant time.
 */
export function verifyWebhookSignature(
  header: string | undefined,
  rawBody: string | Uint8Array,
  secret: string,
  options: WebhookVerifyOptions = {},
): WebhookVerificationResult {
  const parsed = header === undefined ? null : parseHeader(header);
  if (parsed === null) return { valid: false, reason: "malformed_header" };
  const now = options.nowSeconds ?? Math.floor(Date.now() / 1000);
  const tolerance = options.toleranceSeconds ?? WEBHOOK_TOLERANCE_SECONDS;
  // A NaN clock or tolerance would make the window check pass for any timestamp.
  if (!Number.isFinite(now) || !Number.isFinite(tolerance) || tolerance < 0) {
    throw new RangeError(
      "nowSeconds and toleranceSeconds must be finite (tolerance >= 0); omit them for defaults.",
    );
  }
  if (Math.abs(now - parsed.timestamp) > tolerance)
    return { valid: false, reason: "timestamp_out_of_tolerance" };
  const expected = hmacHex(secret, parsed.timestamp, rawBody);
  // Check every candidate so the time taken does not reveal which one matched.
  let matched = false;
  for (const candidate of parsed.signatures) matched = constantTimeHexEqual(candidate, expected) || matched;
  return matched ? { valid: true, reason: "ok" } : { valid: false, reason: "bad_signature" };
}
