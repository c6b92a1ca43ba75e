// Ponder follows a chain's new heads over its websocket and, while that stays open, polls nothing: a subscription
// that stays open but stops announcing heads would stall the chain's mirror until the watchdog. So Ponder reaches
// the chain's websocket through this relay, which passes every message both ways and compares the heads announced
// with the head the checkpoint monitor polls from the RPC. Once the announcements have stood still behind the polled
// head for HEADS_QUIET_MS, it cuts Ponder's connection and refuses new ones: Ponder's reconnections then fail at once,
// and after nine it polls for the rest of its process's life. A new Ponder process gets the websocket again.
import { createServer, STATUS_CODES } from "node:http";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import { type RawData, WebSocket, WebSocketServer } from "ws";
import { publishProgress } from "../progress";
import { stallWatch } from "../watchdog";

/** How long announcements may stand still behind the polled head before Ponder polls instead (docs/indexers.md). */
export const HEADS_QUIET_MS = 5_000;

export interface HeadsRelay {
  /** Where Ponder connects instead of the chain's websocket. */
  url: string;
  /** The chain's head just polled from its RPC; cuts Ponder over to polling once announcements lag it too long. */
  observeHead(head: bigint): void;
  /** A new Ponder process: relays again, and judges its announcements afresh. */
  reset(): void;
  close(): Promise<void>;
}

export interface HeadsRelayOptions {
  chain: string;
  /** The chain's websocket (the manifest's `wsUrl`). */
  target: string;
  log: (line: string) => void;
}

/** The block number a `newHeads` notification announces; undefined for any other message. */
function announcedHead(message: string): bigint | undefined {
  try {
    const parsed = JSON.parse(message) as { method?: string; params?: { result?: { number?: string } } };
    const number = parsed.params?.result?.number;
    return parsed.method === "eth_subscription" && typeof number === "string" ? BigInt(number) : undefined;
  } catch {
    return undefined;
  }
}

/** Answers an upgrade request with `status` instead of a websocket: the client's connection attempt fails. */
function refuse(socket: Duplex, status: number): void {
  if (!socket.destroyed)
    socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\n\r\n`);
}

export async function startHeadsRelay(options: HeadsRelayOptions): Promise<HeadsRelay> {
  const sockets = new WebSocketServer({ noServer: true });
  // Ponder's connections, and the chain's (also those still opening).
  const relayed = new Set<WebSocket>();
  const upstreams = new Set<WebSocket>();
  let refusing = false;
  let announced: bigint | undefined;
  let quiet = stallWatch(HEADS_QUIET_MS);

  const pair = (downstream: WebSocket, upstream: WebSocket) => {
    relayed.add(downstream);
    downstream.on("error", () => undefined); // an error also closes it: handled on "close"
    downstream.on("message", (data: RawData, isBinary) => upstream.send(data, { binary: isBinary }));
    upstream.on("message", (data: RawData, isBinary) => {
      const head = isBinary ? undefined : announcedHead(data.toString());
      if (head !== undefined && (announced === undefined || head > announced)) announced = head;
      downstream.send(data, { binary: isBinary });
      if (head !== undefined)
        publishProgress(() => ({
          chain: options.chain,
          step: "head-relayed",
          number: head,
          at: performance.now(),
        }));
    });
    downstream.once("close", () => {
      relayed.delete(downstream);
      upstream.terminate();
    });
    upstream.once("close", () => downstream.terminate());
    if (upstream.readyState !== WebSocket.OPEN) downstream.terminate();
  };

  const server = createServer((_request, response) => response.writeHead(426).end());
  server.on("upgrade", (request, socket, upgradeHead) => {
    socket.on("error", () => undefined);
    if (refusing) return refuse(socket, 503);
    // Ponder's connection is accepted only once the chain's is open, so a chain that refuses fails Ponder's attempt.
    const upstream = new WebSocket(options.target);
    upstreams.add(upstream);
    let paired = false;
    upstream.on("error", () => undefined); // a failure also closes it: handled on "close"
    upstream.once("close", () => {
      upstreams.delete(upstream);
      if (!paired) refuse(socket, 502);
    });
    socket.once("close", () => {
      if (!paired) upstream.terminate();
    });
    upstream.once("open", () => {
      paired = true;
      sockets.handleUpgrade(request, socket, upgradeHead, (downstream) => pair(downstream, upstream));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  const fallBack = (head: bigint, quietForMs: number) => {
    refusing = true;
    options.log(
      `${options.chain}: its websocket announced no head past ${announced} for ${quietForMs} ms while the head reached ${head}; Ponder polls instead`,
    );
    for (const downstream of relayed) downstream.terminate();
  };

  return {
    url: `ws://127.0.0.1:${port}`,
    observeHead(head) {
      // Ponder subscribes only once it indexes live: until then there is nothing to judge.
      if (refusing || relayed.size === 0) return;
      announced ??= head;
      const quietForMs = quiet.observe(head, announced, Date.now());
      if (quietForMs !== null) fallBack(head, quietForMs);
    },
    reset() {
      for (const downstream of relayed) downstream.terminate();
      refusing = false;
      announced = undefined;
      quiet = stallWatch(HEADS_QUIET_MS);
    },
    async close() {
      for (const connection of [...relayed, ...upstreams]) connection.terminate();
      sockets.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
