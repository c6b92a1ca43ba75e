// Where a running embedded database listens, written into its data folder while it runs. PGlite is
// single-process: a second process must never open the same files. With this record, a tool (the operator
// CLI) reaches the running server as a plain Postgres client, and a second service on the same folder is told
// which process holds it instead of failing on a taken port or, on another port, opening the files twice.
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { ServiceError } from "../core/errors/serviceError";

export interface EmbeddedServerRecord {
  pid: number;
  host: string;
  port: number;
  startedAt: string;
}

const RECORD_FILE = "embedded-server.json";
/** How long a connection attempt to the recorded address may take before the server counts as busy, not gone. */
const PROBE_TIMEOUT_MS = 2000;

export class EmbeddedServerRunningError extends ServiceError {
  constructor(dataDir: string, record: EmbeddedServerRecord) {
    super(
      `Another instance is already running on the embedded database in ${dataDir} (pid ${record.pid}, listening on ${record.host}:${record.port} since ${record.startedAt}). Stop it first, or give this one its own DATA_DIR. The operator CLI connects to the running instance by itself.`,
    );
  }
}

export function embeddedConnectionString(host: string, port: number): string {
  return `postgres://postgres@${host}:${port}/postgres?sslmode=disable`;
}

export function writeServerRecord(dataDir: string, record: EmbeddedServerRecord): void {
  writeFileSync(join(dataDir, RECORD_FILE), `${JSON.stringify(record)}\n`);
}

/** Removes the record when it is this process's own (a newer server's record is left alone). */
export function removeOwnServerRecord(dataDir: string): void {
  if (readServerRecord(dataDir)?.pid === process.pid) rmSync(join(dataDir, RECORD_FILE), { force: true });
}

function readServerRecord(dataDir: string): EmbeddedServerRecord | undefined {
  try {
    const parsed = JSON.parse(
      readFileSync(join(dataDir, RECORD_FILE), "utf8"),
    ) as Partial<EmbeddedServerRecord>;
    const valid =
      Number.isInteger(parsed.pid) &&
      typeof parsed.host === "string" &&
      Number.isInteger(parsed.port) &&
      typeof parsed.startedAt === "string";
    return valid ? (parsed as EmbeddedServerRecord) : undefined;
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Whether nothing listens at the address (refused); a timeout or any other failure counts as listening. */
function refusesConnections(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const settle = (refused: boolean) => {
      socket.destroy();
      resolve(refused);
    };
    socket.setTimeout(PROBE_TIMEOUT_MS, () => settle(false));
    socket.once("connect", () => settle(false));
    socket.once("error", (error: NodeJS.ErrnoException) => settle(error.code === "ECONNREFUSED"));
  });
}

/**
 * The record of a server running on `dataDir`, or undefined when none runs. A record is stale, and removed,
 * when its process is gone or its address refuses connections (the pid was reused, as a restarted container
 * does). A server that is alive but slow to accept still counts
 * as running: opening its files a second time would be far worse than refusing to start.
 */
export async function runningServerRecord(dataDir: string): Promise<EmbeddedServerRecord | undefined> {
  const record = readServerRecord(dataDir);
  if (record === undefined) return undefined;
  const stale = !isAlive(record.pid) || (await refusesConnections(record.host, record.port));
  if (!stale) return record;
  rmSync(join(dataDir, RECORD_FILE), { force: true });
  return undefined;
}
