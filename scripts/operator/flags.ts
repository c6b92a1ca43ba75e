// Command-line flags shared by every operator command.

import { type Environment, isEnvironment } from "../../core/environment";
import type { Actor } from "../../storage/audit";
import { UsageError } from "./command";

export type Flags = Map<string, string | true>;

/** `--name value` pairs and bare `--flag`s; anything else is a usage error. */
export function parseFlags(args: readonly string[]): Flags {
  const flags: Flags = new Map();
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index] as string;
    if (!arg.startsWith("--"))
      throw new UsageError(`Unexpected argument "${arg}"; options look like --name value.`);
    const next = args[index + 1];
    if (next === undefined || next.startsWith("--")) flags.set(arg.slice(2), true);
    else {
      flags.set(arg.slice(2), next);
      index += 1;
    }
  }
  return flags;
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
