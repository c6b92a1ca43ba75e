// Shared by the operator CLI tests: commands looked up by name, and a context whose printed lines a test reads.
import { parseConfig } from "../../../config";
import type { OperatorCommand, OperatorContext } from "../../../scripts/operator/command";
import type { TestApi } from "../../api/support/harness";

/** Finds a command of `commands` by name; a misspelt name fails the test rather than skipping it. */
export function commandLookup(commands: readonly OperatorCommand[]): (name: string) => OperatorCommand {
  return (name) => {
    const found = commands.find((candidate) => candidate.name === name);
    if (!found) throw new Error(`no command ${name}`);
    return found;
  };
}

/** An operator context on the test API's database and master key, with default config, printing to `out`. */
export function apiOperatorContext(api: TestApi, out: (line: string) => void): OperatorContext {
  return { pool: api.db.pool, config: parseConfig({}), masterKey: api.masterKey, out };
}

/** What follows `label` on the first printed line that starts with it ("" when no line does). */
export function printedValue(lines: readonly string[], label: string): string {
  return (
    lines
      .find((line) => line.startsWith(label))
      ?.slice(label.length)
      .trim() ?? ""
  );
}
