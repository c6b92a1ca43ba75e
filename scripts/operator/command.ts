import type { Pool } from "pg";
import type { Config } from "../../config";
import { type FlagSpecs, type Flags, flagHelp, parseFlags } from "./flags";

export { UsageError } from "./flags";

export interface OperatorContext {
  pool: Pool;
  config: Config;
  masterKey: Buffer;
  /** Where results go (stdout); never print secrets except the one-time display of a newly issued one. */
  out: (line: string) => void;
}

/** One operator action, e.g. `api-keys:create`. Every mutating command takes --actor and --reason for the audit log. */
export interface OperatorCommand {
  name: string;
  summary: string;
  usage: string;
  /** The options it accepts besides --json and --help; anything else is refused. */
  flags: FlagSpecs;
  /** Parses `args` strictly; with --json prints only the result as one JSON document. */
  run(args: readonly string[], context: OperatorContext): Promise<void>;
}

interface CommandDefinition extends Omit<OperatorCommand, "run"> {
  /** Prints its text lines with `context.out` and returns what --json prints. */
  run(flags: Flags, context: OperatorContext): Promise<object>;
}

export function defineCommand(definition: CommandDefinition): OperatorCommand {
  return {
    ...definition,
    async run(args, context) {
      const flags = parseFlags(args, definition.flags);
      const json = flags.get("json") === true;
      const result = await definition.run(flags, json ? { ...context, out: () => {} } : context);
      if (json) context.out(JSON.stringify(result, null, 2));
    },
  };
}

/** What `<command> --help` prints: usage, summary and every option. */
export function commandHelp(command: OperatorCommand): string {
  return [
    `Usage: npm run operator -- ${command.usage}`,
    "",
    command.summary,
    "",
    ...flagHelp(command.flags),
  ].join("\n");
}
