// The one data path: a `pg` pool on either a real Postgres (DATABASE_URL) or the embedded PGlite server.
import { Pool } from "pg";
import { type EmbeddedServer, startEmbeddedServer } from "./embeddedServer";
import { migrate } from "./migrate";

export type DatabaseSource =
  /**
   * `schema`, when given, is created if missing and set as every connection's search_path. Tests use it to
   * isolate themselves. On the embedded server all connections share one session, so only one schema can be
   * in use there at a time.
   */
  | { kind: "postgres"; url: string; schema?: string }
  | { kind: "embedded"; dataDir: string; host: string; port: number };

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

export async function openDatabase(source: DatabaseSource): Promise<Database> {
  const embedded =
    source.kind === "embedded"
      ? await startEmbeddedServer({ ...source, maxConnections: EMBEDDED_MAX_CONNECTIONS })
      : undefined;
  const url = source.kind === "postgres" ? source.url : (embedded as EmbeddedServer).connectionString;
  const schema = source.kind === "postgres" ? source.schema : undefined;
  const pool = new Pool({
    connectionString: url,
    max: POOL_SIZE[source.kind],
    ...(schema ? { options: `-c search_path=${quoteIdentifier(schema)}` } : {}),
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
