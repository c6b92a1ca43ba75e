// What every role run alone (`npm run indexer:evm`, `npm run indexer:solana`, `npm run worker`) shares: its
// settings validated through the one configuration before anything starts, Postgres (the embedded database
// is single-process; `npm start` runs every role in its own process) and a clean stop on SIGINT/SIGTERM.
import { type Config, ConfigError, type ConfigOptions, manifestPathOf, parseConfig } from "./index";
import { ManifestError } from "./manifest";

export interface RoleConfig {
  config: Config;
  databaseUrl: string;
  /** DEPLOYMENT_MANIFEST, or DATA_DIR/deployments/local.json. */
  manifestPath: string;
}

/** The role's configuration; throws a ConfigError naming each bad or missing setting. */
export function roleConfig(
  role: string,
  env: Record<string, string | undefined>,
  options: ConfigOptions = {},
): RoleConfig {
  const config = parseConfig(env, options);
  if (config.database.kind !== "postgres") {
    throw new ConfigError([
      `DATABASE_URL is required: ${role} runs alone only against Postgres (the embedded database is single-process; \`npm start\` runs ${role} in its own process).`,
    ]);
  }
  return { config, databaseUrl: config.database.url, manifestPath: manifestPathOf(config) };
}

/** What SIGINT/SIGTERM do: exit at once until the role has started, then `stopOnSignal`'s drain. */
let onSignal = (signal: NodeJS.Signals): void => {
  console.error(`${signal} before the role started: exiting`);
  process.exit(0);
};

/** Runs a role's start; a bad configuration or manifest exits 2 with its message, any other failure 1. */
export function startRole(role: string, start: () => Promise<void>): void {
  // Listening from the first moment: a listener added only once the role is up was, under a signal sent right
  // then, sometimes too late (the process died by the signal's default action instead of draining).
  process.on("SIGINT", (signal) => onSignal(signal));
  process.on("SIGTERM", (signal) => onSignal(signal));
  start().catch((error: Error) => {
    console.error(`${role} could not start: ${error.message}`);
    process.exit(error instanceof ConfigError || error instanceof ManifestError ? 2 : 1);
  });
}

/**
 * On SIGINT/SIGTERM runs `stop` (which drains within `graceMs`) and exits 0; a stop that fails, or does not
 * end within `graceMs` and a margin for closing the database, exits 1. A second signal exits at once.
 */
export function stopOnSignal(stop: () => Promise<void>, graceMs: number, log = console.error): void {
  let stopping = false;
  onSignal = (signal) => {
    if (stopping) process.exit(1);
    stopping = true;
    log(`${signal}: draining (at most ${graceMs} ms)`);
    setTimeout(() => {
      log(`did not stop within ${graceMs + STOP_MARGIN_MS} ms; exiting`);
      process.exit(1);
    }, graceMs + STOP_MARGIN_MS).unref();
    stop().then(
      () => {
        log("stopped");
        process.exit(0);
      },
      (error: Error) => {
        log(`stop failed: ${error.message}`);
        process.exit(1);
      },
    );
  };
}

/** Time beyond the drain for closing pools and children. */
const STOP_MARGIN_MS = 5000;
