// Every environment setting the service reads, with its default and meaning. The README's configuration
// table is this list; `parseConfig` validates all of them at once and names each bad one.
import { z } from "zod";
import { parseMasterKey } from "../core/secrets/secretBox";

/** A Postgres schema name as the indexers create and quote it. */
const schemaName = (fallback: string) =>
  z
    .string()
    .regex(/^[a-z_][a-z0-9_]{0,62}$/, "must be a lowercase schema name: letters, digits and _")
    .default(fallback);
const port = (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback);
const hostList = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((value) =>
      value
        .split(",")
        .map((host) => host.trim().toLowerCase())
        .filter((host) => host.length > 0),
    )
    .refine((hosts) => hosts.every((host) => /^[a-z0-9.-]+(:\d{1,5})?$/.test(host)), {
      message:
        "must be a comma-separated list of host[:port] values, for example api.example.com,api2.example.com:8443",
    });

function isMasterKey(value: string): boolean {
  try {
    parseMasterKey(value);
    return true;
  } catch {
    return false;
  }
}

export const settingsSchema = z.object({
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// connection string")
    .optional(),
  DATA_DIR: z.string().min(1).default("data"),
  EMBEDDED_DB_HOST: z.string().min(1).default("127.0.0.1"),
  EMBEDDED_DB_PORT: port(54329),
  HOST: z.string().min(1).default("127.0.0.1"),
  PORT: port(8787),
  BASE_HOSTS: hostList("localhost:8787,127.0.0.1:8787"),
  SANDBOX_HOSTS: hostList("sandbox.localhost:8787"),
  PRODUCTION_HOSTS: hostList("api.localhost:8787"),
  MASTER_KEY: z
    .string()
    .refine(isMasterKey, {
      message:
        "must be 32 random bytes as base64 or 64 hex characters; generate one with: openssl rand -base64 32",
    })
    .optional(),
  DEPLOYMENT_MANIFEST: z.string().min(1).optional(),
  LOCAL_EVM_PORT: port(8545),
  LOCAL_SOLANA_PORT: port(8899),
  PONDER_PORT: port(42069),
  EVM_POLLING_INTERVAL_MS: z.coerce.number().int().min(50).max(60_000).optional(),
  EVM_VIEWS_SCHEMA: schemaName("evm_mirror"),
  SERVICE_SCHEMA: schemaName("public"),
  SOLANA_COMMITMENT: z.enum(["confirmed", "finalized"]).default("finalized"),
  SOLANA_POLL_INTERVAL_MS: z.coerce.number().int().min(50).max(600_000).default(1000),
  KEYLESS_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(0).max(1_000_000).default(120),
  WORKER_INTERVAL_MS: z.coerce.number().int().min(50).max(600_000).default(1000),
  INDEXER_STALL_MS: z.coerce.number().int().min(1000).max(86_400_000).default(300_000),
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).max(600_000).default(20_000),
  WEBHOOK_ALLOW_LOCALHOST: z.enum(["true", "false"], { message: "must be true or false" }).optional(),
  WEBHOOK_LEASE_MS: z.coerce.number().int().min(1000).max(3_600_000).default(60_000),
  SMTP_URL: z
    .string()
    .regex(
      /^smtps?:\/\/[^\s]+$/,
      "must be an smtp:// or smtps:// URL, for example smtps://user:pass@smtp.example.com:465",
    )
    .optional(),
  MAIL_FROM: z.string().min(3).max(200).default("Identity Protection <no-reply@localhost>"),
  LOG_LEVEL: z
    .enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"], {
      message: "must be one of fatal, error, warn, info, debug, trace, silent",
    })
    .default("info"),
  METRICS_HOST: z.string().min(1).default("127.0.0.1"),
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  PUBLIC_URL: z
    .string()
    .regex(
      /^https?:\/\/[^\s/]+$/,
      "must be http(s)://host[:port] without a path, for example https://api.example.com",
    )
    .optional(),
});

export type Settings = z.infer<typeof settingsSchema>;

/** One line per setting for the README and `--help`: name, default, meaning. */
export const SETTING_DOCS: Record<keyof Settings, string> = {
  DATABASE_URL: "Postgres connection string. Unset: the embedded PGlite database under DATA_DIR is started.",
  DATA_DIR: "Folder for local state: embedded database, generated master key, deployment manifest.",
  EMBEDDED_DB_HOST: "Address the embedded database listens on (only without DATABASE_URL).",
  EMBEDDED_DB_PORT: "Port of the embedded database (only without DATABASE_URL).",
  HOST: "Address the API listens on.",
  PORT: "Port the API listens on.",
  BASE_HOSTS:
    "Canonical hosts (comma-separated host[:port]): accept both key types, route by prefix. Formerly BASE_URLS (still read, with a warning).",
  SANDBOX_HOSTS:
    "Sandbox hosts: reject production keys; the identity check answers from sandbox data. Formerly SANDBOX_URLS.",
  PRODUCTION_HOSTS: "Production hosts: reject sandbox keys. Formerly PRODUCTION_URLS.",
  MASTER_KEY:
    "32 bytes (base64 or hex) that encrypt private signing keys and webhook secrets at rest. Required with DATABASE_URL; generated into DATA_DIR for the embedded default.",
  DEPLOYMENT_MANIFEST:
    "Deployment manifest (chains, RPC URLs, registry addresses, program ids). Unset: `npm start` runs local chains and writes DATA_DIR/deployments/local.json.",
  LOCAL_EVM_PORT: "Port of the local Hardhat node (only without DEPLOYMENT_MANIFEST).",
  LOCAL_SOLANA_PORT:
    "Port of the local Solana JSON-RPC; its websocket is the next port (only without DEPLOYMENT_MANIFEST).",
  PONDER_PORT: "Port of the EVM indexer's (Ponder's) health server.",
  EVM_POLLING_INTERVAL_MS:
    "How often the EVM indexer polls for blocks of a chain without a websocket (manifest wsUrl) or whose websocket failed. Default 1000 ms, 200 ms with local chains.",
  EVM_VIEWS_SCHEMA: "Schema where the EVM indexer publishes stable views of Ponder's tables for operators.",
  SERVICE_SCHEMA:
    "Schema of the service's tables (the mirror the EVM indexer writes): where DATABASE_URL's search_path puts them. Formerly IDENTITY_MIRROR_SCHEMA (still read, with a warning).",
  SOLANA_COMMITMENT: "Commitment the Solana indexer applies and checkpoints at: finalized or confirmed.",
  SOLANA_POLL_INTERVAL_MS:
    "Pause of the Solana indexer between two passes when no websocket notice woke it earlier.",
  KEYLESS_RATE_LIMIT_PER_MINUTE:
    "Keyless calls (identity checks, Solana helpers, embed reservations) per client address per minute, counted in each API process (0: off).",
  WORKER_INTERVAL_MS:
    "Pause between two reconcile passes of the worker (confirmations, failures, lapses, expiring notices, expiries).",
  INDEXER_STALL_MS:
    "The watchdog: an indexer whose chain head is ahead of its checkpoint while the checkpoint has not moved for this long is restarted (the EVM indexer's Ponder process, the Solana indexer's loop), audited, and its chain announced degraded (chain.degraded, reason indexer_stalled).",
  SHUTDOWN_GRACE_MS:
    "On SIGTERM or SIGINT, how long a role drains: the API answers the requests it has received, the worker finishes its passes and webhook attempts, then the role exits 0. Past it the API cuts the requests still open; a role not stopped 5 s later exits 1.",
  SMTP_URL:
    "Outgoing mail server (smtp:// or smtps://, credentials in the URL) for partner mail: email verification, key rotation notices. Unset: each message is written as an .eml file under DATA_DIR/mail/ and its path is logged.",
  MAIL_FROM: "Sender of partner mail.",
  PUBLIC_URL:
    "Base URL partners reach the API on, used in the commands partner mail shows. Default: http:// plus the first BASE_HOSTS host.",
  LOG_LEVEL:
    "Lowest level of the log lines every role writes (JSON lines on stderr; readable lines on a terminal): fatal, error, warn, info, debug, trace or silent.",
  METRICS_HOST:
    "Internal address of each role's metrics and probe server (/metrics, /livez, /readyz); never the public API's. Keep it off the internet.",
  METRICS_PORT:
    "Port of that server. Default per role: 9464 for the API and `npm start`, 9465 the worker, 9466 indexer:evm, 9467 indexer:solana; 0 picks a free port (logged).",
  WEBHOOK_ALLOW_LOCALHOST:
    "Accept webhook receivers on http(s)://localhost, 127.0.0.1 and [::1]. Default: true for the embedded default (no DATABASE_URL), false otherwise; never set it on a hosted service.",
  WEBHOOK_LEASE_MS:
    "How long a worker holds a webhook delivery it claimed: a worker that dies mid-attempt has its deliveries sent again by another once this runs out. Keep it above the 15 s attempt timeout (shorter re-sends slow attempts: more duplicates, never a loss).",
};
