// The Postgres schema a Ponder deployment writes to. Ponder refuses to resume a schema written by other
// indexing code, so the name is derived from everything that decides what gets indexed: the app's source,
// the registry ABI and the manifest's EVM entries. Changing any of them starts a fresh deployment next to
// the old one; the API keeps reading the same read model throughout. The RPC URL is left out (switching
// providers is not a new history); the hash of each deployment block is in (a restarted local node is).
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import type { EvmManifestEntry } from "../../config/manifest";
import { projectPath } from "../../config/projectRoot";

/** What makes one chain's indexed history what it is. */
export interface ChainIdentity
  extends Pick<EvmManifestEntry, "chain" | "chainId" | "registry" | "deployBlock"> {
  deployBlockHash: string;
}

/** The Ponder app's folder (Ponder builds its sources itself, so a built role still names them). */
export const EVM_APP_DIR = projectPath("indexer", "evm");
const REGISTRY_ABI = projectPath("contracts", "abi", "identityRegistry.ts");
const APP_FILES = ["ponder.config.ts", "ponder.schema.ts", "chains.ts", "src"];

function sourceFiles(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path)
    .sort()
    .flatMap((name) => sourceFiles(join(path, name)));
}

/** `evm_` + 12 hex characters of a sha256 over the indexing code and the indexed deployments. */
export function deploymentSchemaName(deployments: readonly ChainIdentity[]): string {
  const hash = createHash("sha256");
  const files = [...APP_FILES.flatMap((file) => sourceFiles(join(EVM_APP_DIR, file))), REGISTRY_ABI];
  for (const file of files) {
    hash.update(relative(EVM_APP_DIR, file)).update("\0").update(readFileSync(file)).update("\0");
  }
  hash.update(JSON.stringify(deployments));
  return `evm_${hash.digest("hex").slice(0, 12)}`;
}
