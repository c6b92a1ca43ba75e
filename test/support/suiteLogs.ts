// Every log line the test APIs write during a whole mocha run, at debug level, and every secret the run
// handed out (API keys it issued, secrets in the answers the service gave: keys, signing secrets, webhook
// secrets, keeper credentials, tokens). The root hook (hooks.ts) checks after the last test that no line
// holds any of them: the redaction is judged on the suite's real traffic, not on one crafted flow.
import { memoryLogger } from "./logs";

const logs = memoryLogger("debug");
const handedOut = new Set<string>();

/** Fields whose string value is a secret the service shows once. */
const SECRET_FIELDS = new Set([
  "apiKey",
  "secret",
  "signingSecret",
  "previousSigningSecret",
  "credential",
  "token",
]);
/** Values shaped like one of the service's secrets wherever they appear. */
const SECRET_SHAPE = /^(svc_[a-z]+_|whsec_)[A-Za-z0-9+/=_-]{6,}$/;

/** The logger every test API writes to unless its test brings its own. */
export const suiteLog = logs.log;

/** Remembers a secret the run handed out (at least 8 characters: shorter values are not secrets). */
export function recordSecret(value: string): void {
  if (value.length >= 8) handedOut.add(value);
}

/** Records the secrets in a response body: secret-named fields and secret-shaped values, at any depth. */
export function recordSecretsIn(body: unknown, depth = 0): void {
  if (body === null || typeof body !== "object" || depth > 8) return;
  for (const [key, value] of Object.entries(body)) {
    if (typeof value === "string") {
      if (SECRET_FIELDS.has(key) || SECRET_SHAPE.test(value)) recordSecret(value);
    } else recordSecretsIn(value, depth + 1);
  }
}

/** How many secrets the run handed out, how many lines it logged, and how many lines hold a secret. */
export function suiteLogFindings(): { secrets: number; lines: number; leaking: number } {
  const lines = logs.lines();
  const leaking = lines.filter((line) => [...handedOut].some((secret) => line.includes(secret))).length;
  return { secrets: handedOut.size, lines: lines.length, leaking };
}
