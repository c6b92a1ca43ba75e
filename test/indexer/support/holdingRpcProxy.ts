// An HTTP proxy in front of a JSON-RPC server that a test can make stop answering: while holding, every request
// but the methods it lets through is kept open unanswered (a hung provider call), and it counts the held requests
// their client gave up on (closed the connection). Released, it forwards the held requests still open and all
// later ones. The head keeps moving through the methods let through (getSlot), as it does when one call hangs.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface HoldingRpcProxy {
  url: string;
  /** Holds every request except those whose method is in `passing`, until `release()`. */
  hold(passing: readonly string[]): void;
  release(): void;
  /** Requests held so far, and how many of them their client abandoned before an answer. */
  counts(): { held: number; abandoned: number };
  close(): Promise<void>;
}

interface Held {
  body: string;
  response: ServerResponse;
}

export async function startHoldingRpcProxy(target: string): Promise<HoldingRpcProxy> {
  let passing: readonly string[] | null = null;
  let held: Held[] = [];
  let heldCount = 0;
  let abandoned = 0;

  const forward = async ({ body, response }: Held) => {
    try {
      const answer = await fetch(target, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body,
      });
      const text = await answer.text();
      if (!response.writableEnded && !response.destroyed) {
        response.writeHead(answer.status, { "content-type": "application/json" }).end(text);
      }
    } catch {
      response.destroy();
    }
  };

  const methodOf = (body: string): string | undefined => {
    try {
      return (JSON.parse(body) as { method?: string }).method;
    } catch {
      return undefined;
    }
  };

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const entry = { body: Buffer.concat(chunks).toString("utf8"), response };
      const method = methodOf(entry.body);
      if (passing === null || (method !== undefined && passing.includes(method))) {
        void forward(entry);
        return;
      }
      heldCount += 1;
      held.push(entry);
      response.on("close", () => {
        if (!response.writableEnded) abandoned += 1;
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    hold(methods) {
      passing = methods;
    },
    release() {
      passing = null;
      const waiting = held;
      held = [];
      for (const entry of waiting) if (!entry.response.destroyed) void forward(entry);
    },
    counts: () => ({ held: heldCount, abandoned }),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
