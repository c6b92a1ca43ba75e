// Standard Webhooks headers (https://www.standardwebhooks.com), sent beside X-Service-Signature so Svix and
// Standard Webhooks verifiers accept our deliveries: `webhook-signature: v1,<base64>`, the HMAC-SHA256 keyed
// with the base64-decoded part of the `whsec_` secret over `<webhook-id>.<webhook-timestamp>.<raw body>`.
import { createHmac } from "node:crypto";
import { WEBHOOK_SECRET_PREFIX } from "./signature";

export const STANDARD_WEBHOOK_HEADERS = {
  id: "webhook-id",
  timestamp: "webhook-timestamp",
  signature: "webhook-signature",
} as const;

function standardKey(secret: string): Buffer {
  const encoded = secret.startsWith(WEBHOOK_SECRET_PREFIX)
    ? secret.slice(WEBHOOK_SECRET_PREFIX.length)
    : secret;
  const key = Buffer.from(encoded, "base64");
  if (key.length === 0)
    throw new RangeError("The webhook signing secret is empty; load the endpoint's secret.");
  return key;
}

/** One `v1,<base64>` signature of `rawBody` for message `messageId` at `timestamp` (unix seconds). */
export function standardWebhookSignature(
  secret: string,
  messageId: string,
  timestamp: number,
  rawBody: string | Uint8Array,
): string {
  const mac = createHmac("sha256", standardKey(secret))
    .update(`${messageId}.${timestamp}.`)
    .update(rawBody)
    .digest("base64");
  return `v1,${mac}`;
}
