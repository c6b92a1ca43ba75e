// The one data path: a `pg` pool on either a real Postgres (DATABASE_URL) or the embedded PGlite server.
import type { Pool } from "pg";
import type { DatabaseSource } from "../config/databaseSource";
import { type EmbeddedServer, startEmbeddedServer } from "./embeddedServer";
import { embeddedConnectionString, runningServerRecord } from "./embeddedServerRecord";
import { migrate } from "./migrate";
import { createPool } from "./pool";

export type { DatabaseSource } from "../config/databaseSource";

export interface Database {
  pool: Pool;
  /** Connection string other processes (Ponder, indexers) use to reach the same database. */
  url: string;
  kind: DatabaseSource["kind"];
  close(): Promise<void>;
}

/** Embedded PGlite accepts this many sockets; each process keeps its own pool well below it. */
export const EMBEDDED_MAX_CONNECTIONS = 32;
const POOL_SIZE = { postgres: 10, embedded: 4 } as const;
/**
 * Connections a pool keeps through a quiet spell. A new connection costs its set-up and the planning of each hot
 * statement again: a burst of 32 of the check's snapshot reads after 11 s idle took 11-15 ms, against 1.6-2.8 ms
 * on two kept connections. Two, as the hot paths keep up to two batches in flight (storage/batchesInFlight).
 */
export const WARM_CONNECTIONS = 2;
/** How long a connection beyond WARM_CONNECTIONS may sit idle before the pool closes it (pg's own default). */
export const IDLE_TIMEOUT_MS = 10_000;

export interface OpenOptions {
  /**
   * Embedded only: when another process already serves the data folder, connect to it as a plain Postgres
   * client instead of refusing to start. For tools an operator runs beside the service (the operator CLI); a
   * service keeps the default, so a second `npm start` on the same folder refuses and names the running one.
   */
  joinRunningEmbedded?: boolean;
}

/** The connection string of the embedded server this process joins or starts (`started` when it is ours). */
async function embeddedServerFor(
  source: Extract<DatabaseSource, { kind: "embedded" }>,
  options: OpenOptions,
): Promise<{ url: string; started?: EmbeddedServer }> {
  const running = options.joinRunningEmbedded ? await runningServerRecord(source.dataDir) : undefined;
  if (running) return { url: embeddedConnectionString(running.host, running.port) };
  const started = await startEmbeddedServer({ ...source, maxConnections: EMBEDDED_MAX_CONNECTIONS });
  return { url: started.connectionString, started };
}

export async function openDatabase(source: DatabaseSource, options: OpenOptions = {}): Promise<Database> {
  const server = source.kind === "embedded" ? await embeddedServerFor(source, options) : undefined;
  const embedded = server?.started;
  const url = source.kind === "postgres" ? source.url : (server as { url: string }).url;
  const schema = source.kind === "postgres" ? source.schema : undefined;
  const pool = createPool({
    connectionString: url,
    max: POOL_SIZE[source.kind],
    min: WARM_CONNECTIONS,
    idleTimeoutMillis: IDLE_TIMEOUT_MS,
    // No JIT: Postgres compiles a statement estimated past jit_above_cost at every execution, named or not,
    // and the service's statements are short (a webhook claim spent 23 of its 28 ms compiling). The embedded
    // server has no JIT and ignores startup options.
    options: ["-c jit=off", ...(schema ? [`-c search_path=${quoteIdentifier(schema)}`] : [])].join(" "),
  });
  // An idle client that loses its connection must not crash the process; the pool replaces it.
  pool.on("error", () => undefined);
  try {
    if (schema) await useSchema(pool, schema);
    await migrate(pool);
  } catch (error) {
    await pool.end();
    await embedded?.stop();
    throw error;
  }
  return {
    pool,
    url,
    kind: source.kind,
    async close() {
      await pool.end();
      await embedded?.stop();
    },
  };
}

export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

async function useSchema(pool: Pool, schema: string): Promise<void> {
  // Postgres sets the search_path of every new connection from the startup `options`; the embedded
  // server ignores them but shares one session among its connections, so the SET below covers it.
  const quoted = quoteIdentifier(schema);
  await pool.query(`CREATE SCHEMA IF NOT EXISTS ${quoted}; SET search_path TO ${quoted}`);
}
