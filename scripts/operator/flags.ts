// Command-line flags: each command declares the ones it takes; parsing is strict (an unknown, repeated or
// malformed option is refused with the list of valid ones), so a typo never silently falls back to a default.

import { type Environment, isEnvironment } from "../../core/environment";
import { ServiceError } from "../../core/errors/serviceError";
import type { Actor } from "../../storage/audit";

/** Thrown for bad command-line input: printed with the command's usage, exit code 2. */
export class UsageError extends ServiceError {
  constructor(message: string) {
    super(message);
  }
}

/** `value` names the argument (`--label <text>`); without it the flag is a bare switch. */
export interface FlagSpec {
  value?: string;
  help: string;
}
export type FlagSpecs = Readonly<Record<string, FlagSpec>>;
export type Flags = Map<string, string | true>;

/** Every command takes these. */
export const COMMON_FLAGS: FlagSpecs = {
  json: { help: "print the result as one JSON document (for scripts)" },
  help: { help: "show this command's usage and options" },
};

/** The flags every mutating command records in the audit log. */
export const ACTOR_FLAGS: FlagSpecs = {
  actor: { value: "who", help: "who performs this (audit log)" },
  reason: { value: "why", help: "why (audit log)" },
};

export function flagHelp(specs: FlagSpecs): string[] {
  const all = Object.entries({ ...specs, ...COMMON_FLAGS }).map(
    ([name, spec]) => [`--${name}${spec.value ? ` <${spec.value}>` : ""}`, spec.help] as const,
  );
  const width = Math.max(...all.map(([flag]) => flag.length));
  return all.map(([flag, help]) => `  ${flag.padEnd(width)}  ${help}`);
}

function validNames(specs: FlagSpecs): string {
  return Object.keys({ ...specs, ...COMMON_FLAGS })
    .map((name) => `--${name}`)
    .join(", ");
}

/** `--name value`, `--name=value` and bare `--switch`es, each declared in `specs` (or common) at most once. */
export function parseFlags(args: readonly string[], specs: FlagSpecs): Flags {
  const flags: Flags = new Map();
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index] as string;
    if (!arg.startsWith("--"))
      throw new UsageError(`Unexpected argument "${arg}"; options look like --name value.`);
    const equals = arg.indexOf("=");
    const name = arg.slice(2, equals < 0 ? undefined : equals);
    const spec = Object.hasOwn(specs, name) ? specs[name] : COMMON_FLAGS[name];
    if (spec === undefined)
      throw new UsageError(`Unknown option --${name}. Valid options: ${validNames(specs)}.`);
    if (flags.has(name)) throw new UsageError(`--${name} is given twice.`);
    if (spec.value === undefined) {
      if (equals >= 0) throw new UsageError(`--${name} takes no value.`);
      flags.set(name, true);
      continue;
    }
    const value = equals >= 0 ? arg.slice(equals + 1) : args[index + 1];
    if (value === undefined || (equals < 0 && value.startsWith("--")))
      throw new UsageError(`--${name} needs a value: <${spec.value}>.`);
    flags.set(name, value);
    if (equals < 0) index += 1;
  }
  return flags;
}

/** A flag's value, if given (the parser has already refused a value-taking flag without one). */
export function optionalFlag(flags: Flags, name: string): string | undefined {
  const value = flags.get(name);
  return typeof value === "string" ? value : undefined;
}

/** A flag that must have a value. */
export function requiredFlag(flags: Flags, name: string, hint: string): string {
  const value = flags.get(name);
  if (typeof value !== "string" || value.trim() === "")
    throw new UsageError(`--${name} is required: ${hint}.`);
  return value.trim();
}

/** --actor and --reason, which every mutating command records in the audit log. */
export function actorOf(flags: Flags): Actor {
  return {
    actor: requiredFlag(flags, "actor", "who performs this (for the audit log)"),
    reason: requiredFlag(flags, "reason", "why (for the audit log)"),
  };
}

export function environmentFlag(flags: Flags): Environment {
  const environment = requiredFlag(flags, "environment", "sandbox or production");
  if (!isEnvironment(environment)) throw new UsageError("--environment must be sandbox or production.");
  return environment;
}

/** --environment when given (sandbox or production); undefined means every environment. */
export function optionalEnvironmentFlag(flags: Flags): Environment | undefined {
  return flags.has("environment") ? environmentFlag(flags) : undefined;
}
