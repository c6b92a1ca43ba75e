// A JSON answer written straight to node:http, with what Express's routes add to theirs: the security
// headers and `responseVersion`. For answers given outside Express (direct routes, the HTTP server itself).
import type { OutgoingHttpHeader, ServerResponse } from "node:http";
import { versioned } from "./responseVersion";
import { SECURITY_HEADER_ENTRIES } from "./securityHeaders";

/**
 * The answer's header fields as one flat `[name, value, ...]` list: the security headers, then `headers` (a
 * route's header replaces the security header of the same name), then the body's type and length. A list,
 * not a merged object: the object built per answer outlived two young-generation collections (about 3 KB an
 * answer reached the old generation, so under load a major collection, 10-30 ms, came every few seconds).
 */
function headerFields(headers: Readonly<Record<string, string>>, length: number): OutgoingHttpHeader[] {
  const fields: OutgoingHttpHeader[] = [];
  for (const [name, value] of SECURITY_HEADER_ENTRIES) if (!(name in headers)) fields.push(name, value);
  for (const name in headers) fields.push(name, headers[name] as string);
  fields.push("Content-Type", "application/json; charset=utf-8", "Content-Length", String(length));
  return fields;
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Readonly<Record<string, string>> = {},
): void {
  const text = JSON.stringify(versioned(body));
  res.writeHead(status, headerFields(headers, Buffer.byteLength(text))).end(text);
}
