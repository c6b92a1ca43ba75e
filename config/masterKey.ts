import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * The master key from configuration, or for the embedded default one generated once into the data folder
 * (readable only by its owner) so that encrypted secrets survive restarts.
 */
export function resolveMasterKey(configured: string | undefined, dataDir: string): Buffer {
  if (configured) return Buffer.from(configured, "base64");
  const file = join(dataDir, "master.key");
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, randomBytes(32).toString("base64"), { mode: 0o600, flag: "wx" });
  }
  const key = Buffer.from(readFileSync(file, "utf8").trim(), "base64");
  if (key.length !== 32) {
    throw new Error(
      `${file} does not hold 32 bytes of base64. Delete it to generate a new one (secrets encrypted under it become unreadable) or set MASTER_KEY.`,
    );
  }
  return key;
}
