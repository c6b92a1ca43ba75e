// Answers written straight to node:http with the security headers: JSON with `responseVersion` (every route's
// answer, the HTTP server's own refusals) and empty ones (a CORS preflight).
import type { OutgoingHttpHeader, ServerResponse } from "node:http";
import { versioned } from "./responseVersion";
import { SECURITY_HEADER_ENTRIES } from "./securityHeaders";

/**
 * The answer's header fields as one flat `[name, value, ...]` list: the security headers, then `headers` (a
 * route's header replaces the security header of the same name). A list, not a merged object: the object built
 * per answer outlived two young-generation collections (about 3 KB an answer reached the old generation, so
 * under load a major collection, 10-30 ms, came every few seconds).
 */
function headerFields(headers: Readonly<Record<string, string>>): OutgoingHttpHeader[] {
  const fields: OutgoingHttpHeader[] = [];
  for (const [name, value] of SECURITY_HEADER_ENTRIES) if (!(name in headers)) fields.push(name, value);
  for (const name in headers) fields.push(name, headers[name] as string);
  return fields;
}

/** `body` as JSON; with `responseVersion` added unless `asIs` (the OpenAPI document may not carry it). */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Readonly<Record<string, string>> = {},
  asIs = false,
): void {
  const text = JSON.stringify(asIs ? body : versioned(body));
  const fields = headerFields(headers);
  fields.push(
    "Content-Type",
    "application/json; charset=utf-8",
    "Content-Length",
    String(Buffer.byteLength(text)),
  );
  res.writeHead(status, fields).end(text);
}

/** An answer without a body. */
export function sendEmpty(
  res: ServerResponse,
  status: number,
  headers: Readonly<Record<string, string>>,
): void {
  res.writeHead(status, headerFields(headers)).end();
}
