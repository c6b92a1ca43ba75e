// The soak's HTTP client: keep-alive connections to the service (undici), a bounded number of them, and a
// deadline on every request so that a service that hangs shows up as timeouts instead of stalling the bench.
import { Pool } from "undici";

/** What one request got: a status and its JSON body, or no answer (timeout, refused or reset connection). */
export type Answer =
  | { status: number; body: unknown }
  | { status: "timeout"; body: undefined }
  | { status: "no_answer"; body: undefined };

export interface SoakClient {
  get(path: string): Promise<Answer>;
  post(path: string, body: unknown, headers: Record<string, string>): Promise<Answer>;
  close(): Promise<void>;
}

function isTimeout(error: unknown): boolean {
  const code = (error as { code?: string }).code ?? "";
  return (
    code === "UND_ERR_HEADERS_TIMEOUT" ||
    code === "UND_ERR_BODY_TIMEOUT" ||
    (error as Error).name === "TimeoutError" ||
    (error as Error).name === "AbortError"
  );
}

function bodyOf(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export function soakClient(baseUrl: string, connections: number, timeoutMs: number): SoakClient {
  const pool = new Pool(baseUrl, { connections, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
  const request = async (
    method: "GET" | "POST",
    path: string,
    body?: string,
    headers: Record<string, string> = {},
  ): Promise<Answer> => {
    try {
      const response = await pool.request({
        method,
        path,
        headers: body === undefined ? headers : { "content-type": "application/json", ...headers },
        body,
        signal: AbortSignal.timeout(timeoutMs),
      });
      return { status: response.statusCode, body: bodyOf(await response.body.text()) };
    } catch (error) {
      return isTimeout(error)
        ? { status: "timeout", body: undefined }
        : { status: "no_answer", body: undefined };
    }
  };
  return {
    get: (path) => request("GET", path),
    post: (path, body, headers) => request("POST", path, JSON.stringify(body), headers),
    close: () => pool.close(),
  };
}
