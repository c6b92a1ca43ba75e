// A small HTTP client for API tests: node:http (fetch cannot set the Host header), raw or JSON bodies,
// repeated headers and query strings exactly as given.
import { request } from "node:http";

export interface HttpResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** Parsed JSON body, or undefined when the body is not JSON. */
  body: unknown;
}

export interface HttpRequest {
  method?: string;
  /** Path with query string, e.g. "/api/v1/keys?environment=sandbox". */
  path: string;
  host?: string;
  headers?: Record<string, string>;
  /** An object is sent as JSON; a string or Buffer is sent as-is. */
  body?: unknown;
}

export function send(baseUrl: string, options: HttpRequest): Promise<HttpResponse> {
  const url = new URL(baseUrl);
  const raw =
    options.body === undefined
      ? undefined
      : typeof options.body === "string" || Buffer.isBuffer(options.body)
        ? options.body
        : JSON.stringify(options.body);
  const headers: Record<string, string> = {
    ...(raw !== undefined
      ? { "content-type": "application/json", "content-length": String(Buffer.byteLength(raw)) }
      : {}),
    ...(options.host ? { host: options.host } : {}),
    ...options.headers,
  };
  return new Promise((resolve, reject) => {
    const req = request(
      { host: url.hostname, port: url.port, method: options.method ?? "GET", path: options.path, headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          let body: unknown;
          try {
            body = JSON.parse(text);
          } catch {
            body = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body });
        });
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    if (raw !== undefined) req.write(raw);
    req.end();
  });
}
