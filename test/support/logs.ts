// A logger whose JSON lines are kept in memory, for tests that read what a component logged.
import { createLogger, type Logger, type LogLevel } from "../../telemetry/log";

export function memoryLogger(level: LogLevel = "debug"): {
  log: Logger;
  lines(): string[];
  messages(): string[];
} {
  const lines: string[] = [];
  const log = createLogger({ level, destination: { write: (line: string) => void lines.push(line) } });
  return {
    log,
    lines: () => [...lines],
    messages: () => lines.map((line) => String((JSON.parse(line) as { msg?: unknown }).msg ?? "")),
  };
}
