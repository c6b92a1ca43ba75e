// The embedded server's own thread: PGlite (Postgres compiled to WASM), pglite-socket's connection handler
// and the session queue (./sessionQueue), which decides whose messages run, because PGlite has one session
// for all connections. storage/embeddedServer starts it; it runs here rather than on the main thread so that
// the database's work and the service's (the API, the worker, the indexers of `npm start`) use a core each.
import { mkdirSync } from "node:fs";
import { type AddressInfo, createServer, type Server, type Socket } from "node:net";
import { parentPort, workerData } from "node:worker_threads";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { PGLiteSocketHandler, type PGLiteSocketHandlerOptions } from "@electric-sql/pglite-socket";
import type { EmbeddedServerOptions, EmbeddedThreadMessage } from "./embeddedServer";
import { removeOwnServerRecord, writeServerRecord } from "./embeddedServerRecord";
import { SessionQueue } from "./sessionQueue";

async function serve(options: EmbeddedServerOptions): Promise<{ port: number; stop(): Promise<void> }> {
  mkdirSync(options.dataDir, { recursive: true });
  // pg_trgm: the protected list's text search is indexed (storage/migrations/0019).
  const db = await PGlite.create({ dataDir: options.dataDir, extensions: { pg_trgm } });
  // The handler is typed against pglite-socket's own queue class; ours has the same public methods.
  const queryQueue = new SessionQueue(db) as unknown as PGLiteSocketHandlerOptions["queryQueue"];
  const handlers = new Set<PGLiteSocketHandler>();

  const accept = async (socket: Socket) => {
    if (handlers.size >= options.maxConnections) {
      socket.end();
      return;
    }
    const handler = new PGLiteSocketHandler({ queryQueue, closeOnDetach: true });
    handlers.add(handler);
    const forget = () => handlers.delete(handler);
    handler.addEventListener("close", forget);
    handler.addEventListener("error", forget);
    await handler.attach(socket).catch(() => {
      forget();
      socket.destroy();
    });
  };
  const server: Server = createServer((socket) => void accept(socket));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, resolve);
  });
  const { port } = server.address() as AddressInfo;
  writeServerRecord(options.dataDir, {
    pid: process.pid,
    host: options.host,
    port,
    startedAt: new Date().toISOString(),
  });
  return {
    port,
    async stop() {
      removeOwnServerRecord(options.dataDir);
      await Promise.all([...handlers].map((handler) => handler.detach(true)));
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await db.close();
    },
  };
}

const parent = parentPort;
if (parent !== null) {
  const tell = (message: EmbeddedThreadMessage) => parent.postMessage(message);
  serve(workerData as EmbeddedServerOptions).then(
    (server) => {
      tell({ kind: "listening", port: server.port });
      // The one message the thread is sent: stop. A failed stop fails the thread, and the stop with it.
      parent.once("message", () => {
        void server.stop().finally(() => parent.close());
      });
    },
    (error: Error) => {
      tell({ kind: "failed", message: error.message });
      parent.close();
    },
  );
}
