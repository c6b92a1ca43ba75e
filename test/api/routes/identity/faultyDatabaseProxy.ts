// A TCP proxy in front of the test database that can stop it: all at once (`stop`), or at the moment a
// client sends a statement containing some text (`failOn`), which kills the database mid-request.
import { connect, createServer, type Server, type Socket } from "node:net";

export interface FaultyDatabaseProxy {
  /** Connection string through the proxy (same database, user and options as `target`). */
  url: string;
  /** Every connection is cut, and new ones are refused, from now on. */
  stop(): void;
  /** The next statement whose text contains `marker` cuts every connection (and stops the proxy). */
  failOn(marker: string): void;
  close(): Promise<void>;
}

export async function startFaultyDatabaseProxy(target: string): Promise<FaultyDatabaseProxy> {
  const upstream = new URL(target);
  const sockets = new Set<Socket>();
  let stopped = false;
  let marker: string | undefined;

  const stop = () => {
    stopped = true;
    for (const socket of sockets) socket.destroy();
  };

  const server: Server = createServer((client) => {
    if (stopped) {
      client.destroy();
      return;
    }
    const database = connect(Number(upstream.port || 5432), upstream.hostname);
    sockets.add(client).add(database);
    client.on("data", (chunk: Buffer) => {
      if (marker !== undefined && chunk.includes(marker)) {
        stop();
        return;
      }
      database.write(chunk);
    });
    database.on("data", (chunk: Buffer) => client.write(chunk));
    const end = () => {
      client.destroy();
      database.destroy();
      sockets.delete(client);
      sockets.delete(database);
    };
    client.on("close", end).on("error", end);
    database.on("close", end).on("error", end);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const proxied = new URL(target);
  proxied.hostname = "127.0.0.1";
  proxied.port = String(typeof address === "object" && address ? address.port : 0);
  return {
    url: proxied.toString(),
    stop,
    failOn(text) {
      marker = text;
    },
    close: () =>
      new Promise<void>((resolve) => {
        stop();
        server.close(() => resolve());
      }),
  };
}
