// What each role sets up first, before its database: the logger (LOG_LEVEL, child per role), and its internal
// metrics and probe server on METRICS_HOST:METRICS_PORT (a default port per role, so the roles of one host
// do not collide), unready until the role says its start-up steps are done.
import type { Config } from "../config";
import { createLogger, type Logger, registerSecret } from "./log";
import { type ProbeServer, Readiness, startProbeServer } from "./probes";

export type RoleName = "api" | "worker" | "indexer:evm" | "indexer:solana" | "start";

/** Where each role's probe server listens without METRICS_PORT (`start`: every role in one process). */
export const DEFAULT_METRICS_PORTS: Readonly<Record<RoleName, number>> = {
  api: 9464,
  start: 9464,
  worker: 9465,
  "indexer:evm": 9466,
  "indexer:solana": 9467,
};

export interface RoleTelemetry {
  /** The role's logger; components take `.child({ component })`. */
  log: Logger;
  readiness: Readiness;
  probes: ProbeServer;
  close(): Promise<void>;
}

export interface RoleTelemetryOptions {
  /** Readable lines instead of JSON (`npm start` on a terminal). */
  pretty?: boolean;
}

export async function startRoleTelemetry(
  role: RoleName,
  config: Config,
  options: RoleTelemetryOptions = {},
): Promise<RoleTelemetry> {
  if (config.masterKey !== undefined) registerSecret(config.masterKey);
  const log = createLogger({ level: config.telemetry.logLevel, pretty: options.pretty }).child({ role });
  const readiness = new Readiness();
  const probes = await startProbeServer({
    host: config.telemetry.metricsHost,
    port: config.telemetry.metricsPort ?? DEFAULT_METRICS_PORTS[role],
    readiness,
    log: log.child({ component: "probes" }),
  });
  for (const warning of config.warnings) log.warn(warning);
  log.info(`metrics and probes on ${probes.url} (/metrics, /livez, /readyz)`);
  return { log, readiness, probes, close: () => probes.close() };
}

/** The master key in the forms it may be written (base64, hex): scrubbed from every line. */
export function registerMasterKey(key: Buffer): void {
  registerSecret(key.toString("base64"), key.toString("hex"));
}
