// Log records as readable lines for a person at a terminal (`npm start`): time, level, role/component,
// message, then the remaining fields as JSON. A few lines of our own instead of pino-pretty and its worker
// thread; the records are the same JSON objects a collector reads, already redacted.
import type { DestinationStream } from "pino";

const OMITTED = new Set(["time", "level", "pid", "role", "component", "msg", "hostname"]);
const COLOURS: Record<string, string> = {
  fatal: "\x1b[35m",
  error: "\x1b[31m",
  warn: "\x1b[33m",
  info: "\x1b[32m",
  debug: "\x1b[36m",
  trace: "\x1b[90m",
};
const RESET = "\x1b[0m";

/** One readable line of a JSON record (the record itself when it is not JSON). */
export function prettyLine(record: string, colour: boolean): string {
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(record) as Record<string, unknown>;
  } catch {
    return record.trimEnd();
  }
  const level = String(parsed.level ?? "info");
  const time = typeof parsed.time === "string" ? parsed.time.slice(11, 23) : "";
  const where = [parsed.role, parsed.component].filter((part) => typeof part === "string").join("/");
  const rest = Object.fromEntries(Object.entries(parsed).filter(([key]) => !OMITTED.has(key)));
  const label = level.toUpperCase().padEnd(5);
  const levelText = colour ? `${COLOURS[level] ?? ""}${label}${RESET}` : label;
  const fields = Object.keys(rest).length > 0 ? ` ${JSON.stringify(rest)}` : "";
  return `${time} ${levelText} ${where ? `[${where}] ` : ""}${String(parsed.msg ?? "")}${fields}`;
}

export function prettyStream(out: NodeJS.WriteStream): DestinationStream {
  const colour = out.isTTY === true;
  return { write: (record: string) => void out.write(`${prettyLine(record, colour)}\n`) };
}
