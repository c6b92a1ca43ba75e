// Operator CLI: `npm run operator -- <command> [--flag value …]`. Commands live in ./commands, one file per
// area, each exporting `commands: OperatorCommand[]`. It works against the database the configuration names;
// on the embedded default it connects to the instance already running on DATA_DIR (`npm start`), if any.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { ConfigError, loadConfig } from "../../config";
import { resolveMasterKey } from "../../config/masterKey";
import { openDatabase } from "../../storage/database";
import { type OperatorCommand, UsageError } from "./command";

async function loadCommands(): Promise<OperatorCommand[]> {
  const dir = join(__dirname, "commands");
  const modules = await Promise.all(
    readdirSync(dir)
      .filter((file) => file.endsWith(".ts"))
      .map((file) => import(join(dir, file)) as Promise<{ commands: OperatorCommand[] }>),
  );
  return modules.flatMap((module) => module.commands).sort((a, b) => a.name.localeCompare(b.name));
}

function help(commands: OperatorCommand[]): string {
  const width = Math.max(...commands.map((command) => command.name.length), 4);
  return [
    "Usage: npm run operator -- <command> [options]",
    "",
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
  ].join("\n");
}

async function main(): Promise<number> {
  const commands = await loadCommands();
  const [name, ...args] = process.argv.slice(2);
  const command = commands.find((candidate) => candidate.name === name);
  if (!command) {
    console.error(
      name && name !== "help" ? `Unknown command "${name}".\n\n${help(commands)}` : help(commands),
    );
    return name && name !== "help" ? 2 : 0;
  }
  const config = loadConfig();
  const database = await openDatabase(config.database, { joinRunningEmbedded: true });
  try {
    await command.run(args, {
      pool: database.pool,
      config,
      masterKey: resolveMasterKey(config.masterKey, config.dataDir),
      out: (line) => console.log(line),
    });
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`${error.message}\n\nUsage: ${command.usage}`);
      return 2;
    }
    throw error;
  } finally {
    await database.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: Error) => {
    console.error(error instanceof ConfigError ? error.message : `Failed: ${error.message}`);
    process.exit(1);
  },
);
