// The embedded default: PGlite (Postgres compiled to WASM) served over the Postgres wire protocol, so the
// API, the indexers and Ponder reach it through the same `pg` data path as a real Postgres. The server runs
// on a thread of its own (./embeddedServerThread) in the process that starts it: a killed process still
// takes its database down with it, and every commit it acknowledged is on disk by then (README, "Durability").
import { existsSync } from "node:fs";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import { ServiceError } from "../core/errors/serviceError";
import { assertPortFree } from "../net/ports";
import {
  EmbeddedServerRunningError,
  embeddedConnectionString,
  runningServerRecord,
} from "./embeddedServerRecord";

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

export class EmbeddedServerFailedError extends ServiceError {}

/** What the server's thread tells the thread that started it. */
export type EmbeddedThreadMessage = { kind: "listening"; port: number } | { kind: "failed"; message: string };

/** The thread's bundle, built beside a compiled bench server (scripts/build/roles.ts, THREAD_ENTRY_POINTS). */
export const EMBEDDED_THREAD_BUNDLE = "embedded-database-thread.js";

/**
 * The thread's code, as a script that loads it: the source under tsx (its CommonJS hook, which a thread
 * does not inherit from `tsx`'s loader), else the bundle beside this one.
 */
function threadScript(): string {
  const source = join(__dirname, "embeddedServerThread.ts");
  const load = existsSync(source)
    ? [require.resolve("tsx/cjs"), source]
    : [join(__dirname, EMBEDDED_THREAD_BUNDLE)];
  return load.map((path) => `require(${JSON.stringify(path)});`).join("\n");
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
  const thread = new Worker(threadScript(), { eval: true, workerData: options });
  const exited = new Promise<number>((resolve) => thread.once("exit", resolve));
  const port = await new Promise<number>((resolve, reject) => {
    thread.once("message", (message: EmbeddedThreadMessage) => {
      if (message.kind === "listening") resolve(message.port);
      else if (message.kind === "failed") reject(new EmbeddedServerFailedError(message.message));
    });
    thread.once("error", reject);
    void exited.then((code) =>
      reject(new EmbeddedServerFailedError(`The embedded database exited with ${code}.`)),
    );
  });
  let stopping = false;
  let stopFailure: Error | undefined;
  // Past start-up, the thread failing is the database gone: as fatal as it was on the main thread.
  thread.on("error", (error) => {
    if (stopping) stopFailure = error;
    else throw new EmbeddedServerFailedError("The embedded database's thread failed.", { cause: error });
  });
  void exited.then((code) => {
    if (!stopping) throw new EmbeddedServerFailedError(`The embedded database's thread exited with ${code}.`);
  });
  return {
    connectionString: embeddedConnectionString(options.host, port),
    async stop() {
      if (!stopping) thread.postMessage("stop");
      stopping = true;
      await exited;
      if (stopFailure !== undefined) {
        throw new EmbeddedServerFailedError("The embedded database did not stop cleanly.", {
          cause: stopFailure,
        });
      }
    },
  };
}
