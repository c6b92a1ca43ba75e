// A second API process for cross-process tests: same app, fixture routes and database schema as the test, clock pinned by
// FIXED_NOW_MS. Prints {"url": …} on stdout once listening; stops when its stdin closes.
import { createApp } from "../../../api/app";
import { listen } from "../../../api/server";
import { openDatabase } from "../../../storage/database";
import { createLogger } from "../../../telemetry/log";
import { ExecutionCounter, fixtureRoutes } from "./fixtureRoutes";
import { TEST_HOSTS } from "./harness";

async function main(): Promise<void> {
  const { DB_URL, DB_SCHEMA, FIXED_NOW_MS } = process.env;
  if (!DB_URL || !DB_SCHEMA) throw new Error("DB_URL and DB_SCHEMA are required");
  const database = await openDatabase({ kind: "postgres", url: DB_URL, schema: DB_SCHEMA });
  const fixedNow = FIXED_NOW_MS ? Number(FIXED_NOW_MS) : undefined;
  const app = createApp(
    {
      pool: database.pool,
      startedAt: new Date(),
      log: createLogger({ level: "warn" }),
      hosts: TEST_HOSTS,
      keylessRateLimitPerMinute: 0,
      decisions: { chains: [] },
      now: fixedNow === undefined ? Date.now : () => fixedNow,
    },
    [fixtureRoutes(new ExecutionCounter())],
  );
  const server = await listen(app, "127.0.0.1", 0);
  process.stdout.write(`${JSON.stringify({ url: server.url })}\n`);
  process.stdin.on("end", () => {
    void server.close().then(() => database.close().then(() => process.exit(0)));
  });
  process.stdin.resume();
}

main().catch((error: Error) => {
  process.stderr.write(`${error.stack ?? error.message}\n`);
  process.exit(1);
});
