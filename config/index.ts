// One typed configuration, read from the environment once at start and validated as a whole.
import { resolve } from "node:path";
import { ServiceError } from "../core/errors/serviceError";
import type { DatabaseSource } from "./databaseSource";
import { localManifestPath } from "./manifest";
import { withRenamedSettings } from "./renamedSettings";
import { type Settings, settingsSchema } from "./settings";

export type { DatabaseSource } from "./databaseSource";
export { SETTING_DOCS } from "./settings";

export class ConfigError extends ServiceError {
  constructor(readonly problems: string[]) {
    super(`The service cannot start with this configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
  }
}

export interface Config {
  /** Settings read under a name they were renamed from (config/renamedSettings.ts); each role logs them. */
  warnings: string[];
  database: DatabaseSource;
  dataDir: string;
  api: { host: string; port: number };
  /** Keyless identity checks per client address per minute, per API process (0: off). */
  keylessRateLimitPerMinute: number;
  hosts: { base: string[]; sandbox: string[]; production: string[] };
  /** Base64 master key when set in the environment; the embedded default generates one under dataDir. */
  masterKey: string | undefined;
  chains: {
    /** Path of the deployment manifest of real chains; undefined: run local chains. */
    manifestPath: string | undefined;
    localEvmPort: number;
    localSolanaPort: number;
  };
  indexers: {
    ponderPort: number;
    evmPollingIntervalMs: number | undefined;
    evmViewsSchema: string;
    /** Schema of the service's tables, which the EVM indexer (Ponder's process) writes the mirror into. */
    serviceSchema: string;
    solanaCommitment: Settings["SOLANA_COMMITMENT"];
    solanaPollIntervalMs: number;
    /** The watchdog's stall time (indexer/watchdog.ts). */
    stallMs: number;
  };
  /** How long a role drains on SIGTERM/SIGINT before it cuts what is left. */
  shutdownGraceMs: number;
  /** Pause between two reconcile passes of the reservation worker. */
  worker: { intervalMs: number };
  /** Webhook sending: localhost receivers accepted (a locally run service only); the claim lease of a delivery. */
  webhooks: { allowLocalReceivers: boolean; leaseMs: number };
  /** Partner mail: over SMTP when `smtpUrl` is set, else written as .eml files into `directory`. */
  mail: MailSettings;
  /** Log level, and the internal address of the metrics and probe server (a role default port when unset). */
  telemetry: { logLevel: Settings["LOG_LEVEL"]; metricsHost: string; metricsPort: number | undefined };
}

export interface MailSettings {
  smtpUrl: string | undefined;
  /** Where messages are written without SMTP: DATA_DIR/mail. */
  directory: string;
  from: string;
  /** The API's base URL as partners reach it, for the commands in the mail. */
  publicUrl: string;
}

export interface ConfigOptions {
  /** Whether the process decrypts secrets at rest (the API, the worker, scripts). The indexers never do. */
  usesMasterKey?: boolean;
}

/** Validates every setting at once; throws a ConfigError naming each bad setting and how to fix it. */
export function parseConfig(env: Record<string, string | undefined>, options: ConfigOptions = {}): Config {
  const { env: current, warnings } = withRenamedSettings(env);
  const present = Object.fromEntries(
    Object.entries(current).filter(([, value]) => value !== undefined && value !== ""),
  );
  const parsed = settingsSchema.safeParse(present);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.join(".")} ${issue.message}`));
  }
  const settings = parsed.data;
  const problems = crossSettingProblems(settings, options.usesMasterKey ?? true);
  if (problems.length > 0) throw new ConfigError(problems);
  const dataDir = resolve(settings.DATA_DIR);
  return {
    warnings,
    database: settings.DATABASE_URL
      ? { kind: "postgres", url: settings.DATABASE_URL }
      : {
          kind: "embedded",
          dataDir: resolve(dataDir, "pglite"),
          host: settings.EMBEDDED_DB_HOST,
          port: settings.EMBEDDED_DB_PORT,
        },
    dataDir,
    api: { host: settings.HOST, port: settings.PORT },
    keylessRateLimitPerMinute: settings.KEYLESS_RATE_LIMIT_PER_MINUTE,
    hosts: {
      base: settings.BASE_HOSTS,
      sandbox: settings.SANDBOX_HOSTS,
      production: settings.PRODUCTION_HOSTS,
    },
    masterKey: settings.MASTER_KEY,
    chains: {
      manifestPath: settings.DEPLOYMENT_MANIFEST ? resolve(settings.DEPLOYMENT_MANIFEST) : undefined,
      localEvmPort: settings.LOCAL_EVM_PORT,
      localSolanaPort: settings.LOCAL_SOLANA_PORT,
    },
    indexers: {
      ponderPort: settings.PONDER_PORT,
      evmPollingIntervalMs: settings.EVM_POLLING_INTERVAL_MS,
      evmViewsSchema: settings.EVM_VIEWS_SCHEMA,
      serviceSchema: settings.SERVICE_SCHEMA,
      solanaCommitment: settings.SOLANA_COMMITMENT,
      solanaPollIntervalMs: settings.SOLANA_POLL_INTERVAL_MS,
      stallMs: settings.INDEXER_STALL_MS,
    },
    shutdownGraceMs: settings.SHUTDOWN_GRACE_MS,
    worker: { intervalMs: settings.WORKER_INTERVAL_MS },
    webhooks: {
      allowLocalReceivers:
        (settings.WEBHOOK_ALLOW_LOCALHOST ?? (settings.DATABASE_URL ? "false" : "true")) === "true",
      leaseMs: settings.WEBHOOK_LEASE_MS,
    },
    mail: {
      smtpUrl: settings.SMTP_URL,
      directory: resolve(dataDir, "mail"),
      from: settings.MAIL_FROM,
      publicUrl: settings.PUBLIC_URL ?? `http://${settings.BASE_HOSTS[0] ?? `localhost:${settings.PORT}`}`,
    },
    telemetry: {
      logLevel: settings.LOG_LEVEL,
      metricsHost: settings.METRICS_HOST,
      metricsPort: settings.METRICS_PORT,
    },
  };
}

function crossSettingProblems(settings: Settings, usesMasterKey: boolean): string[] {
  const problems: string[] = [];
  if (usesMasterKey && settings.DATABASE_URL && !settings.MASTER_KEY) {
    problems.push(
      "MASTER_KEY is required when DATABASE_URL is set (a shared database needs a key managed outside this machine); generate one with: openssl rand -base64 32",
    );
  }
  const lists = [
    ["BASE_HOSTS", settings.BASE_HOSTS],
    ["SANDBOX_HOSTS", settings.SANDBOX_HOSTS],
    ["PRODUCTION_HOSTS", settings.PRODUCTION_HOSTS],
  ] as const;
  const owner = new Map<string, string>();
  for (const [name, hosts] of lists) {
    for (const host of hosts) {
      const other = owner.get(host);
      if (other && other !== name)
        problems.push(`${name} and ${other} both list ${host}; a host belongs to one environment`);
      owner.set(host, name);
    }
  }
  return problems;
}

export function loadConfig(options: ConfigOptions = {}): Config {
  return parseConfig(process.env, options);
}

/** The manifest of the chains to serve: DEPLOYMENT_MANIFEST, or the one `npm start` writes for local chains. */
export function manifestPathOf(config: Config): string {
  return config.chains.manifestPath ?? localManifestPath(config.dataDir);
}
