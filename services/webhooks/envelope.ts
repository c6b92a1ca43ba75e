// What a delivery sends: the envelope `{ id, type, createdAt, data }` as the exact body bytes, and the headers
// that sign those bytes: X-Service-Signature (Stripe's scheme) and the Standard Webhooks trio. During a secret
// rotation's grace window every secret signs, so a receiver holding either one verifies the delivery. A sandbox
// key's secret is no `whsec_` secret, so it signs X-Service-Signature only.

import { signWebhook, WEBHOOK_SIGNATURE_HEADER } from "../../core/webhook/signature";
import { STANDARD_WEBHOOK_HEADERS, standardWebhookSignature } from "../../core/webhook/standardSignature";
import type { DeliverySecrets } from "./endpointSecrets";

export interface OutgoingEvent {
  /** The delivery id: envelope id and webhook-id, the same on every retry and replay. */
  id: string;
  type: string;
  createdAt: Date;
  data: unknown;
}

export const WEBHOOK_USER_AGENT = "identity-protection-service-webhooks/1";

export function envelopeBody(event: OutgoingEvent): string {
  return JSON.stringify({
    id: event.id,
    type: event.type,
    createdAt: event.createdAt.toISOString(),
    data: event.data,
  });
}

/** `t=<unix>,v1=<hex>[,v1=<hex>…]`: one v1 per secret (verifiers accept any matching v1). */
function serviceSignature(secrets: readonly string[], body: string, timestamp: number): string {
  const signatures = secrets.map((secret) => {
    const header = signWebhook(secret, body, timestamp);
    return header.slice(header.indexOf(",") + 1);
  });
  return [`t=${timestamp}`, ...signatures].join(",");
}

/** The request headers of one attempt, signed at `timestamp` (unix seconds) with every current secret. */
export function signedHeaders(
  id: string,
  body: string,
  secrets: DeliverySecrets,
  timestamp: number,
): Record<string, string> {
  const { endpoint, sandboxKeys } = secrets;
  if (endpoint.length === 0) throw new RangeError("A delivery needs at least one endpoint signing secret.");
  return {
    "content-type": "application/json",
    "user-agent": WEBHOOK_USER_AGENT,
    [WEBHOOK_SIGNATURE_HEADER.toLowerCase()]: serviceSignature(
      [...endpoint, ...sandboxKeys],
      body,
      timestamp,
    ),
    [STANDARD_WEBHOOK_HEADERS.id]: id,
    [STANDARD_WEBHOOK_HEADERS.timestamp]: String(timestamp),
    [STANDARD_WEBHOOK_HEADERS.signature]: endpoint
      .map((secret) => standardWebhookSignature(secret, id, timestamp, body))
      .join(" "),
  };
}
