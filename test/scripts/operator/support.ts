// Shared by the operator CLI tests: commands looked up by name, and a context whose printed lines a test reads.
import { parseConfig } from "../../../config";
import type { OperatorCommand, OperatorContext } from "../../../scripts/operator/command";
import { startTestApi, type TestApi } from "../../api/support/harness";

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

/** For the enclosing describe block: a test API, an operator context on it, and the lines printed in this test. */
export function operatorOnTestApi(): {
  readonly api: TestApi;
  readonly context: OperatorContext;
  readonly lines: readonly string[];
  /** Forgets the lines printed so far (a test that reads a second command's output on its own). */
  clearLines(): void;
  printed(label: string): string;
} {
  let api: TestApi | undefined;
  let context: OperatorContext | undefined;
  let lines: string[] = [];
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error("the test API starts in the describe block's before hook");
    return value;
  };
  before(async () => {
    api = await startTestApi();
    context = apiOperatorContext(api, (line) => lines.push(line));
  });
  beforeEach(() => {
    lines = [];
  });
  after(async () => api?.close());
  return {
    get api() {
      return started(api);
    },
    get context() {
      return started(context);
    },
    get lines() {
      return lines;
    },
    clearLines: () => {
      lines = [];
    },
    printed: (label) => printedValue(lines, label),
  };
}
