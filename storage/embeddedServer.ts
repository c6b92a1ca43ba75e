// The embedded default: PGlite (Postgres compiled to WASM) served over the Postgres wire protocol, so the
// API, the indexers and Ponder reach it through the same `pg` data path as a real Postgres.
import { mkdirSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import { assertPortFree } from "./portCheck";

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

export async function startEmbeddedServer(options: EmbeddedServerOptions): Promise<EmbeddedServer> {
  await assertPortFree(options.host, options.port, "EMBEDDED_DB_PORT");
  mkdirSync(options.dataDir, { recursive: true });
  const db = await PGlite.create({ dataDir: options.dataDir });
  const server = new PGLiteSocketServer({
    db,
    host: options.host,
    port: options.port,
    maxConnections: options.maxConnections,
  });
  await server.start();
  const connectionString = `postgres://postgres@${options.host}:${options.port}/postgres?sslmode=disable`;
  return {
    connectionString,
    async stop() {
      await server.stop();
      await db.close();
    },
  };
}
