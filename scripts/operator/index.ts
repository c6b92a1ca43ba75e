// Operator CLI: `npm run operator -- <command> [--flag value …]`. Commands live in ./commands, one file per
// area, each exporting `commands: OperatorCommand[]` that declare their flags (parsed strictly; --help, --json). It works against the database the configuration names;
// on the embedded default it connects to the instance already running on DATA_DIR (`npm start`), if any.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { ConfigError, loadConfig } from "../../config";
import { resolveMasterKey } from "../../config/masterKey";
import { openDatabase } from "../../storage/database";
import { commandHelp, type OperatorCommand, UsageError } from "./command";
import { parseFlags } from "./flags";

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
    "",
    "Every command takes --help (its options) and --json (its result as one JSON document).",
  ].join("\n");
}

async function main(): Promise<number> {
  const commands = await loadCommands();
  const [name, ...args] = process.argv.slice(2);
  const helpFor = name === "help" ? commands.find((candidate) => candidate.name === args[0]) : undefined;
  if (helpFor) {
    console.log(commandHelp(helpFor));
    return 0;
  }
  const command = commands.find((candidate) => candidate.name === name);
  if (!command) {
    console.error(
      name && name !== "help" ? `Unknown command "${name}".\n\n${help(commands)}` : help(commands),
    );
    return name && name !== "help" ? 2 : 0;
  }
  if (args.includes("--help")) {
    console.log(commandHelp(command));
    return 0;
  }
  try {
    // Refuse bad options before touching the database.
    parseFlags(args, command.flags);
    await runAgainstDatabase(command, args);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`${error.message}\n\n${commandHelp(command)}`);
      return 2;
    }
    throw error;
  }
}

async function runAgainstDatabase(command: OperatorCommand, args: string[]): Promise<void> {
  const config = loadConfig();
  const database = await openDatabase(config.database, { joinRunningEmbedded: true });
  try {
    await command.run(args, {
      pool: database.pool,
      config,
      masterKey: resolveMasterKey(config.masterKey, config.dataDir),
      out: (line) => console.log(line),
    });
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
