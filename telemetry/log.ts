// The one logger of every role: pino, one JSON object per line on stderr (a readable line per record on a
// terminal), its level from LOG_LEVEL, a child per role and per component. Secrets never reach a line: known
// fields are censored by path, and every string (messages, fields, error messages and stacks) is scrubbed of
// anything shaped like a key or secret, and of the secret values a role registers (the master key).
import pino, { type DestinationStream, type Logger as PinoLogger } from "pino";
import { prettyStream } from "./pretty";

export type Logger = PinoLogger;
export type LogLevel = "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent";

const CENSOR = "[redacted]";

// Fields that hold a secret whatever their value looks like, at the top of a record or one level down.
const SECRET_FIELDS = [
  "authorization",
  "Authorization",
  "apiKey",
  "secret",
  "signingSecret",
  "webhookSecret",
  "masterKey",
  "password",
  "token",
  "credential",
];
const REDACT_PATHS = [
  ...SECRET_FIELDS,
  ...SECRET_FIELDS.map((field) => `*.${field}`),
  "headers.authorization",
  "headers.cookie",
  "*.headers.authorization",
  "*.headers.cookie",
];

// Our secrets' shapes: API keys (svc_live_, svc_sbx_), signing secrets (svc_sigsec_), keeper credentials
// (svc_keeper_), webhook secrets (whsec_), and a bearer token after its scheme.
const SECRET_SHAPES = /\b(svc_[a-z]+_|whsec_)[A-Za-z0-9+/=_-]{6,}|\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/g;

/** Exact values no line may contain (the master key as configured, say), registered by the role. */
const registeredSecrets = new Set<string>();

/** Adds values (at least 8 characters) that every logger of this process scrubs from its lines. */
export function registerSecret(...values: readonly string[]): void {
  for (const value of values) if (value.length >= 8) registeredSecrets.add(value);
}

/** `text` with every secret-shaped part and every registered secret replaced by the censor. */
export function scrubSecrets(text: string): string {
  let scrubbed = text.replace(
    SECRET_SHAPES,
    (_match, prefix: string | undefined, scheme: string | undefined) =>
      prefix !== undefined ? `${prefix}${CENSOR}` : `${scheme} ${CENSOR}`,
  );
  for (const secret of registeredSecrets) {
    if (scrubbed.includes(secret)) scrubbed = scrubbed.split(secret).join(CENSOR);
  }
  return scrubbed;
}

const MAX_DEPTH = 6;

function scrubValue(value: unknown, depth: number): unknown {
  if (typeof value === "string") return scrubSecrets(value);
  if (value === null || typeof value !== "object" || depth >= MAX_DEPTH) return value;
  if (value instanceof Error) return value; // the err serializer scrubs it
  if (Array.isArray(value)) return value.map((item) => scrubValue(item, depth + 1));
  if (Buffer.isBuffer(value) || value instanceof Date) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) out[key] = scrubValue(item, depth + 1);
  return out;
}

function errorSerializer(error: unknown): unknown {
  const serialized = pino.stdSerializers.err(error as Error) as unknown;
  return scrubValue(serialized, 0);
}

export interface LoggerOptions {
  level: LogLevel;
  /** Where lines go; default stderr, as readable lines when `pretty`. */
  destination?: DestinationStream;
  /** Readable lines instead of JSON (a terminal); ignored with an explicit destination. */
  pretty?: boolean;
}

/** The process's root logger; roles take `.child({ role })` and components `.child({ component })`. */
export function createLogger(options: LoggerOptions): Logger {
  const destination =
    options.destination ??
    (options.pretty === true ? prettyStream(process.stderr) : pino.destination({ fd: 2, sync: true }));
  return pino(
    {
      level: options.level,
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: REDACT_PATHS, censor: CENSOR },
      serializers: { err: errorSerializer, error: errorSerializer },
      formatters: {
        level: (label) => ({ level: label }),
        log: (object) => scrubValue(object, 0) as Record<string, unknown>,
      },
      hooks: {
        logMethod(args, method) {
          // An error alone would lend pino its raw message as the line's message.
          const [first] = args as unknown[];
          if (first instanceof Error && args.length === 1) {
            return method.apply(this, [{ err: first }, scrubSecrets(first.message)] as Parameters<
              typeof method
            >);
          }
          for (let i = 0; i < args.length; i++) {
            const arg = args[i];
            if (typeof arg === "string") args[i] = scrubSecrets(arg);
          }
          method.apply(this, args as Parameters<typeof method>);
        },
      },
    },
    destination,
  );
}

/** A logger that writes nothing: library defaults and tests that do not look at lines. */
export function silentLogger(): Logger {
  return pino({ level: "silent" });
}

/** A plain line sink for the pure layers (core's backoff) and the indexers' internals, at `level`. */
export function lineSink(logger: Logger, level: "info" | "warn" | "error" = "info"): (line: string) => void {
  return (line) => logger[level](line);
}
