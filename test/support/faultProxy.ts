// A TCP proxy between a client and a real server (Postgres, an RPC) that a test can cut or freeze, to see how
// the client's role behaves while its dependency is gone and after it comes back. Cutting closes every
// connection and refuses new ones, as a stopped server does; freezing keeps connections open but forwards
// nothing, as a server stopped with SIGSTOP does. Nothing is faked beyond the network between the two.
import { createServer, type Server, type Socket, connect as tcpConnect } from "node:net";

export type FaultMode = "pass" | "cut" | "freeze";

export interface FaultProxy {
  /** The port clients connect to, on 127.0.0.1. */
  port: number;
  /** `url` with its host and port replaced by the proxy's. */
  urlThrough(url: string): string;
  /** Closes every open connection and refuses new ones until `restore()`. */
  cut(): void;
  /** Accepts connections and keeps them open, forwarding nothing, until `restore()`. */
  freeze(): void;
  /** Forwards again; connections held while frozen resume where they stopped. */
  restore(): void;
  mode(): FaultMode;
  close(): Promise<void>;
}

interface Pair {
  client: Socket;
  upstream?: Socket;
  held: { from: "client" | "upstream"; chunk: Buffer }[];
}

export async function startFaultProxy(target: { host: string; port: number }): Promise<FaultProxy> {
  let mode: FaultMode = "pass";
  const pairs = new Set<Pair>();

  const closePair = (pair: Pair) => {
    pairs.delete(pair);
    pair.client.destroy();
    pair.upstream?.destroy();
  };

  const forward = (pair: Pair, from: "client" | "upstream", chunk: Buffer) => {
    if (mode === "freeze") {
      pair.held.push({ from, chunk });
      return;
    }
    (from === "client" ? pair.upstream : pair.client)?.write(chunk);
  };

  const server: Server = createServer((client) => {
    if (mode === "cut") {
      client.destroy();
      return;
    }
    const pair: Pair = { client, held: [] };
    pairs.add(pair);
    const upstream = tcpConnect(target.port, target.host);
    pair.upstream = upstream;
    client.on("data", (chunk) => forward(pair, "client", chunk));
    upstream.on("data", (chunk) => forward(pair, "upstream", chunk));
    client.on("error", () => closePair(pair));
    upstream.on("error", () => closePair(pair));
    client.on("close", () => closePair(pair));
    upstream.on("close", () => closePair(pair));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;

  return {
    port,
    urlThrough(url) {
      const parsed = new URL(url);
      parsed.hostname = "127.0.0.1";
      parsed.port = String(port);
      return parsed.toString();
    },
    cut() {
      mode = "cut";
      for (const pair of [...pairs]) closePair(pair);
    },
    freeze() {
      mode = "freeze";
    },
    restore() {
      mode = "pass";
      for (const pair of pairs) {
        for (const { from, chunk } of pair.held.splice(0)) forward(pair, from, chunk);
      }
    },
    mode: () => mode,
    async close() {
      for (const pair of [...pairs]) closePair(pair);
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
