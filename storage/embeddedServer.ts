// The embedded default: PGlite (Postgres compiled to WASM) served over the Postgres wire protocol, so the
// API, the indexers and Ponder reach it through the same `pg` data path as a real Postgres.
// pglite-socket's connection handler speaks the protocol; the session queue (./sessionQueue) decides
// whose messages run, because PGlite has one session for all connections.
import { mkdirSync } from "node:fs";
import { type AddressInfo, createServer, type Server, type Socket } from "node:net";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { PGLiteSocketHandler, type PGLiteSocketHandlerOptions } from "@electric-sql/pglite-socket";
import { assertPortFree } from "../net/ports";
import {
  EmbeddedServerRunningError,
  embeddedConnectionString,
  removeOwnServerRecord,
  runningServerRecord,
  writeServerRecord,
} from "./embeddedServerRecord";
import { SessionQueue } from "./sessionQueue";

export interface EmbeddedServerOptions {
  /** Folder that holds the database files; created when missing. */
  dataDir: string;
  host: string;
  port: number;
  /** Ponder alone opens about 7 connections; the API, worker and Solana indexer need their own. */
  maxConnections: number;
}

export interface EmbeddedServer {
  connectionString: string;
  stop(): Promise<void>;
}

/** Starts the server; refuses (EmbeddedServerRunningError) while another one runs on the same data folder. */
export async function startEmbeddedServer(options: EmbeddedServerOptions): Promise<EmbeddedServer> {
  const running = await runningServerRecord(options.dataDir);
  if (running) throw new EmbeddedServerRunningError(options.dataDir, running);
  await assertPortFree(options.host, {
    port: options.port,
    service: "embedded database",
    setting: "EMBEDDED_DB_PORT",
  });
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
    connectionString: embeddedConnectionString(options.host, port),
    async stop() {
      removeOwnServerRecord(options.dataDir);
      await Promise.all([...handlers].map((handler) => handler.detach(true)));
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await db.close();
    },
  };
}
