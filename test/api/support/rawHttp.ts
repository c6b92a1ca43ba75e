// Sends a request byte for byte over a socket: what node:http refuses to send (NUL or other control bytes
// in a header, a raw byte in the path, any Expect header) is exactly what resilience tests need to send.
import { connect } from "node:net";
import type { HttpResponse } from "./http";

export interface RawRequest {
  method?: string;
  /** Path and query, written as Latin-1 bytes (one byte per character below U+0100). */
  path: string;
  /** Header values are written as Latin-1 bytes too, so a test can send any byte. */
  headers?: Record<string, string>;
  /** A string is sent as UTF-8 (lone surrogates become U+FFFD); a Buffer as it is. */
  body?: string | Buffer;
}

function chunkedBody(bytes: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = bytes.indexOf("\r\n", at);
    const size = Number.parseInt(bytes.subarray(at, lineEnd).toString("latin1"), 16);
    if (!(size > 0)) return Buffer.concat(parts);
    parts.push(bytes.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}

function parsedResponse(received: Buffer): HttpResponse {
  let raw = received;
  // Interim answers (100 Continue) come first; the answer is the last head.
  while (raw.subarray(0, 10).toString("latin1").startsWith("HTTP/1.1 1")) {
    raw = raw.subarray(raw.indexOf("\r\n\r\n") + 4);
  }
  const headEnd = raw.indexOf("\r\n\r\n");
  const [statusLine = "", ...lines] = raw.subarray(0, headEnd).toString("latin1").split("\r\n");
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(":");
    headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  const rest = raw.subarray(headEnd + 4);
  const text = (headers["transfer-encoding"] === "chunked" ? chunkedBody(rest) : rest).toString("utf8");
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: Number(statusLine.split(" ")[1]), headers, text, body };
}

/** Sends one request on a fresh connection (closed after the answer) and parses the answer. */
export function sendRaw(baseUrl: string, request: RawRequest): Promise<HttpResponse> {
  const url = new URL(baseUrl);
  const body =
    request.body === undefined
      ? undefined
      : Buffer.isBuffer(request.body)
        ? request.body
        : Buffer.from(request.body, "utf8");
  const headers = {
    host: url.host,
    connection: "close",
    ...(body === undefined
      ? {}
      : { "content-type": "application/json", "content-length": String(body.length) }),
    ...request.headers,
  };
  const head = `${request.method ?? "GET"} ${request.path} HTTP/1.1\r\n${Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join("")}\r\n`;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(Number(url.port), url.hostname, () => {
      socket.write(Buffer.from(head, "latin1"));
      if (body !== undefined) socket.write(body);
    });
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("close", () => resolve(parsedResponse(Buffer.concat(chunks))));
    socket.on("error", reject);
  });
}
