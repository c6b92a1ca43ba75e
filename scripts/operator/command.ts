import type { Pool } from "pg";
import type { Config } from "../../config";
import { ServiceError } from "../../core/errors/serviceError";

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
  run(args: string[], context: OperatorContext): Promise<void>;
}

/** Thrown for bad command-line input: printed with the command's usage, exit code 2. */
export class UsageError extends ServiceError {
  constructor(message: string) {
    super(message);
  }
}
