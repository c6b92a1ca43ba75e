// A JSON answer written straight to node:http, with what Express's routes add to theirs: the security
// headers and `responseVersion`. For answers given outside Express (direct routes, the HTTP server itself).
import type { ServerResponse } from "node:http";
import { versioned } from "./responseVersion";
import { SECURITY_HEADERS } from "./securityHeaders";

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(versioned(body));
  res
    .writeHead(status, {
      ...SECURITY_HEADERS,
      ...headers,
      "Content-Type": "application/json; charset=utf-8",
      "Content-Length": Buffer.byteLength(text),
    })
    .end(text);
}
