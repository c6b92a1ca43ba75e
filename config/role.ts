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

/** Runs a role's start; a bad configuration or manifest exits 2 with its message, any other failure 1. */
export function startRole(role: string, start: () => Promise<void>): void {
  start().catch((error: Error) => {
    console.error(`${role} could not start: ${error.message}`);
    process.exit(error instanceof ConfigError || error instanceof ManifestError ? 2 : 1);
  });
}

/** Stops `stop` on SIGINT/SIGTERM, then exits. */
export function stopOnSignal(stop: () => Promise<void>): void {
  const handler = () => void stop().then(() => process.exit(0));
  process.once("SIGINT", handler);
  process.once("SIGTERM", handler);
}
