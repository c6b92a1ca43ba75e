import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { generateMasterKey, MasterKeyError, parseMasterKey } from "../core/secrets/secretBox";

/**
 * The master key from configuration, or for the embedded default one generated once into the data folder
 * (readable only by its owner) so that encrypted secrets survive restarts.
 */
export function resolveMasterKey(configured: string | undefined, dataDir: string): Buffer {
  if (configured) return parseMasterKey(configured);
  const file = join(dataDir, "master.key");
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, generateMasterKey(), { mode: 0o600, flag: "wx" });
  }
  try {
    return parseMasterKey(readFileSync(file, "utf8"));
  } catch (error) {
    if (!(error instanceof MasterKeyError)) throw error;
    throw new MasterKeyError(
      `${file} does not hold a valid master key. Delete it to generate a new one (secrets encrypted under it become unreadable) or set MASTER_KEY.`,
    );
  }
}
