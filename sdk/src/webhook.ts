// Webhook verification over the raw body, with Web Crypto only (browsers, edge runtimes, Node >= 20):
// `X-Service-Signature: t=<unix>,v1=<hex>` (HMAC-SHA256 with the endpoint secret over `<t>.<raw body>`), or
// the Standard Webhooks trio when that header is absent. HMACs are compared by crypto.subtle.verify, which
// compares in constant time, and every candidate is checked so the time taken does not tell which matched.
import { decodeBase64Strict, encodeBase64 } from "../../core/encoding/base64";
import { WebhookVerificationError } from "./errors";
import type { WebhookEvent } from "./events";

export const WEBHOOK_TOLERANCE_SECONDS = 300;
const SECRET_PREFIX = "whsec_";
const UTF8 = new TextEncoder();

type HmacKey = Awaited<ReturnType<typeof crypto.subtle.importKey>>;

export type RawBody = string | Uint8Array | ArrayBuffer;
export type WebhookHeaders =
  | Headers
  | Readonly<Record<string, string | readonly string[] | undefined>>
  | { get(name: string): string | null | undefined };

export interface VerifyWebhookOptions {
  /** Allowed distance between the signature's time and now, both ways. Default 300 s. */
  toleranceSeconds?: number;
  /** Unix seconds; defaults to the current time. */
  nowSeconds?: number;
}

const NOT_RAW_BODY =
  "verifyWebhook needs the raw request body (a string or bytes) exactly as received, not a parsed object: " +
  "JSON.stringify of a parsed body does not give back the signed bytes. Express: express.raw({ type: " +
  '"application/json" }) on the webhook route and pass req.body (the bytes); Hono: await c.req.text(); ' +
  "Next.js route handler: await request.text(). Parse the JSON only after verifyWebhook succeeds.";

function rawBytes(rawBody: unknown): Uint8Array {
  if (typeof rawBody === "string") return UTF8.encode(rawBody);
  if (rawBody instanceof Uint8Array) return rawBody;
  if (rawBody instanceof ArrayBuffer) return new Uint8Array(rawBody);
  throw new WebhookVerificationError("not_raw_body", NOT_RAW_BODY);
}

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as { get?: unknown }).get === "function") {
    return (headers as { get(name: string): string | null | undefined }).get(name) ?? undefined;
  }
  const record = headers as Readonly<Record<string, string | readonly string[] | undefined>>;
  const key = Object.keys(record).find((candidate) => candidate.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  return Array.isArray(value) ? value.join(",") : (value as string | undefined);
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

function hmacKey(keyBytes: Uint8Array, usage: "sign" | "verify"): Promise<HmacKey> {
  if (keyBytes.length === 0) {
    throw new RangeError("The webhook signing secret is empty; load the endpoint's secret.");
  }
  return crypto.subtle.importKey(
    "raw",
    keyBytes as Uint8Array<ArrayBuffer>,
    { name: "HMAC", hash: "SHA-256" },
    false,
    [usage],
  );
}

/** Whether any candidate MAC is the HMAC of `message`; all are checked. */
async function anyMatches(key: HmacKey, candidates: readonly Uint8Array[], message: Uint8Array) {
  let matched = false;
  for (const candidate of candidates) {
    const ok = await crypto.subtle.verify(
      "HMAC",
      key,
      candidate as Uint8Array<ArrayBuffer>,
      message as Uint8Array<ArrayBuffer>,
    );
    matched = ok || matched;
  }
  return matched;
}

function hexBytes(hex: string): Uint8Array {
  return Uint8Array.from(hex.match(/../g) ?? [], (pair) => Number.parseInt(pair, 16));
}

/** `t` and the `v1` values of an X-Service-Signature header; unknown schemes are ignored. */
function parseServiceHeader(value: string): { timestamp: number; macs: Uint8Array[] } | null {
  let timestamp: number | null = null;
  const macs: Uint8Array[] = [];
  for (const item of value.split(",")) {
    const separator = item.indexOf("=");
    if (separator < 0) return null;
    const key = item.slice(0, separator).trim();
    const part = item.slice(separator + 1).trim();
    if (key === "t") {
      if (timestamp !== null || !/^\d{1,12}$/.test(part)) return null;
      timestamp = Number(part);
    } else if (key === "v1") {
      if (!/^[0-9a-f]{64}$/.test(part)) return null;
      macs.push(hexBytes(part));
    }
  }
  return timestamp === null || macs.length === 0 ? null : { timestamp, macs };
}

/** The Standard Webhooks key: the base64 part of a `whsec_` secret. */
function standardKeyBytes(secret: string): Uint8Array {
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  const padded = encoded.padEnd(Math.ceil(encoded.length / 4) * 4, "=");
  return decodeBase64Strict(padded) ?? new Uint8Array();
}

interface SignedParts {
  timestamp: number;
  macs: Uint8Array[];
  key: Promise<HmacKey>;
  message: Uint8Array;
}

function signedParts(headers: WebhookHeaders, body: Uint8Array, secret: string): SignedParts {
  const service = header(headers, "x-service-signature");
  if (service !== undefined) {
    const parsed = parseServiceHeader(service);
    if (parsed === null) throw malformed("X-Service-Signature is not t=<unix>,v1=<hex>.");
    const message = concat(UTF8.encode(`${parsed.timestamp}.`), body);
    return { ...parsed, key: hmacKey(UTF8.encode(secret), "verify"), message };
  }
  const id = header(headers, "webhook-id");
  const timestamp = header(headers, "webhook-timestamp");
  const signature = header(headers, "webhook-signature");
  if (id === undefined || timestamp === undefined || signature === undefined) {
    throw malformed("No X-Service-Signature header (nor the Standard Webhooks headers) on this request.");
  }
  if (!/^\d{1,12}$/.test(timestamp)) throw malformed("webhook-timestamp is not unix seconds.");
  const macs = signature
    .split(" ")
    .filter((entry) => entry.startsWith("v1,"))
    .map((entry) => decodeBase64Strict(entry.slice(3)))
    .filter((mac): mac is Uint8Array => mac !== null);
  if (macs.length === 0) throw malformed("webhook-signature has no v1 signature.");
  const message = concat(UTF8.encode(`${id}.${timestamp}.`), body);
  return { timestamp: Number(timestamp), macs, key: hmacKey(standardKeyBytes(secret), "verify"), message };
}

function malformed(message: string): WebhookVerificationError {
  return new WebhookVerificationError("malformed_header", message);
}

function parsedEvent(body: Uint8Array): WebhookEvent {
  let event: unknown;
  try {
    event = JSON.parse(new TextDecoder().decode(body));
  } catch {
    throw new WebhookVerificationError("malformed_event", "The signed body is not JSON.");
  }
  const envelope = event as Record<string, unknown> | null;
  if (
    typeof envelope !== "object" ||
    envelope === null ||
    typeof envelope.id !== "string" ||
    typeof envelope.type !== "string" ||
    typeof envelope.createdAt !== "string" ||
    typeof envelope.data !== "object" ||
    envelope.data === null
  ) {
    throw new WebhookVerificationError("malformed_event", "The signed body is not an event envelope.");
  }
  return event as WebhookEvent;
}

/**
 * Verifies a delivery and returns its event. Pass the raw body exactly as received and the request headers.
 * Throws WebhookVerificationError (answer 400, do not process) when the body is not raw, the header is
 * missing or malformed, the timestamp is more than `toleranceSeconds` from now, or no signature matches.
 * Deliveries are retried and replayed with the same `id`: ignore ids you have already processed.
 */
export async function verifyWebhook(
  rawBody: RawBody,
  headers: WebhookHeaders,
  secret: string,
  options: VerifyWebhookOptions = {},
): Promise<WebhookEvent> {
  const body = rawBytes(rawBody);
  const now = options.nowSeconds ?? Math.floor(Date.now() / 1000);
  const tolerance = options.toleranceSeconds ?? WEBHOOK_TOLERANCE_SECONDS;
  // A NaN clock or tolerance would make the window check pass for any timestamp.
  if (!Number.isFinite(now) || !Number.isFinite(tolerance) || tolerance < 0) {
    throw new RangeError("nowSeconds and toleranceSeconds must be finite (tolerance >= 0).");
  }
  const parts = signedParts(headers, body, secret);
  if (Math.abs(now - parts.timestamp) > tolerance) {
    throw new WebhookVerificationError(
      "timestamp_out_of_tolerance",
      `The signature's time is more than ${tolerance} s from now (a replay, or a clock to fix).`,
    );
  }
  if (!(await anyMatches(await parts.key, parts.macs, parts.message))) {
    throw new WebhookVerificationError("bad_signature", "No signature matches this body and secret.");
  }
  return parsedEvent(body);
}

export interface TestWebhook {
  /** The exact body to send. */
  body: string;
  /** Content-Type, X-Service-Signature and the Standard Webhooks headers. */
  headers: Record<string, string>;
}

/** Signs an event as the service would, for a partner's own tests of its webhook endpoint. */
export async function signTestWebhook(
  event: WebhookEvent,
  secret: string,
  options: { timestampSeconds?: number } = {},
): Promise<TestWebhook> {
  const timestamp = options.timestampSeconds ?? Math.floor(Date.now() / 1000);
  const body = JSON.stringify(event);
  const bytes = UTF8.encode(body);
  const mac = async (key: Uint8Array, prefix: string) =>
    new Uint8Array(
      await crypto.subtle.sign(
        "HMAC",
        await hmacKey(key, "sign"),
        concat(UTF8.encode(prefix), bytes) as Uint8Array<ArrayBuffer>,
      ),
    );
  const hex = Array.from(await mac(UTF8.encode(secret), `${timestamp}.`), (byte) =>
    byte.toString(16).padStart(2, "0"),
  ).join("");
  const headers: Record<string, string> = {
    "content-type": "application/json",
    "x-service-signature": `t=${timestamp},v1=${hex}`,
  };
  // The Standard Webhooks trio needs a `whsec_<base64>` secret, the form the service issues.
  const standardKey = standardKeyBytes(secret);
  if (standardKey.length > 0) {
    headers["webhook-id"] = event.id;
    headers["webhook-timestamp"] = String(timestamp);
    headers["webhook-signature"] = `v1,${encodeBase64(await mac(standardKey, `${event.id}.${timestamp}.`))}`;
  }
  return { body, headers };
}
