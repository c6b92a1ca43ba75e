// Webhook test support: a DNS answer table injected as the receiver lookup, a real local receiver that records
// every request with its raw body, and a clock the tests move by hand.
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Pool } from "pg";
import type { HostLookup } from "../../../services/webhooks";

/** Resolves the names in `table` (mutable: a test may re-point a name), and fails like DNS for others. */
export function tableLookup(table: Record<string, string[]>): HostLookup {
  return async (hostname) => {
    const addresses = table[hostname];
    if (addresses === undefined)
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
    return addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  };
}

/**
 * `count` production endpoints of as many other partners (ids `whe_idle_<n>`), never sent to: stand-ins that
 * show what endpoints with nothing to do cost the job.
 */
export async function insertIdleEndpoints(pool: Pool, count: number, enabled: boolean): Promise<void> {
  await pool.query(
    `INSERT INTO webhook_endpoints (id, partner_id, environment, url, enabled, secret_sealed, created_at, updated_at)
     SELECT 'whe_idle_' || n, 'partner_idle_' || n, 'production', 'https://idle.example/' || n, $2, 'unused',
       now(), now()
     FROM generate_series(1, $1::int) AS n`,
    [count, enabled],
  );
}

export class ManualClock {
  constructor(public ms: number) {}
  now = (): number => this.ms;
  advance(ms: number): void {
    this.ms += ms;
  }
}

export interface ReceivedRequest {
  path: string;
  headers: IncomingHttpHeaders;
  rawBody: string;
}

/** What the receiver answers: a status, or a function that writes the answer itself (or never does). */
export type Answer = number | ((response: ServerResponse) => void);

export class Receiver {
  readonly received: ReceivedRequest[] = [];
  /** Answers by path; 200 when none is set. */
  readonly answers = new Map<string, Answer>();
  private server: Server | undefined;
  port = 0;

  async start(): Promise<void> {
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        const path = request.url ?? "/";
        this.received.push({
          path,
          headers: request.headers,
          rawBody: Buffer.concat(chunks).toString("utf8"),
        });
        const answer = this.answers.get(path) ?? 200;
        if (typeof answer === "function") answer(response);
        else response.writeHead(answer, { "content-type": "text/plain" }).end("ok");
      });
    });
    this.server = server;
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    this.port = (server.address() as AddressInfo).port;
  }

  url(path: string): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  at(path: string): ReceivedRequest[] {
    return this.received.filter((request) => request.path === path);
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
