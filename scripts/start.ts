// `npm start`: the whole service on one machine. Without configuration it is the embedded default:
// embedded database under ./data, then the API. Ctrl-C stops everything in reverse order.
import { createApp } from "../api/app";
import { listen } from "../api/server";
import { ConfigError, loadConfig } from "../config";
import { resolveMasterKey } from "../config/masterKey";
import { openDatabase } from "../storage/database";

type Stop = () => Promise<void>;

async function main(): Promise<void> {
  const config = loadConfig();
  const stops: Stop[] = [];
  const stopAll = async () => {
    for (const stop of stops.reverse()) await stop().catch((error: Error) => console.error(error.message));
  };
  process.once("SIGINT", () => void stopAll().then(() => process.exit(0)));
  process.once("SIGTERM", () => void stopAll().then(() => process.exit(0)));

  try {
    resolveMasterKey(config.masterKey, config.dataDir);
    const database = await openDatabase(config.database);
    stops.push(() => database.close());

    const startedAt = new Date();
    const app = createApp({ pool: database.pool, startedAt, log: (message) => console.error(message) });
    const api = await listen(app, config.api.host, config.api.port);
    stops.push(() => api.close());

    printScreen([
      ["API", `${api.url}/api/v1/health`],
      [
        "Database",
        config.database.kind === "embedded"
          ? `${database.url} (embedded, files in ${config.database.dataDir})`
          : "DATABASE_URL",
      ],
      ["Canonical hosts", config.hosts.base.join(", ")],
      ["Sandbox hosts", config.hosts.sandbox.join(", ")],
      ["Production hosts", config.hosts.production.join(", ")],
    ]);
  } catch (error) {
    await stopAll();
    throw error;
  }
}

function printScreen(rows: [string, string][]): void {
  const width = Math.max(...rows.map(([label]) => label.length));
  const lines = rows.map(([label, value]) => `  ${label.padEnd(width)}  ${value}`);
  console.log(["", "Identity protection service is running. Ctrl-C stops it.", "", ...lines, ""].join("\n"));
}

main().catch((error: Error) => {
  console.error(error instanceof ConfigError ? error.message : `Could not start: ${error.message}`);
  process.exit(1);
});
