// The deployment manifest every part reads (indexers, API, scripts): where each chain's RPC is and
// where the registries live. `npm run localnet` / `npm start` write it to data/deployments/local.json.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import type { EvmManifestEntry } from "../scripts/evm/manifest";

export type { EvmManifestEntry };

export interface SolanaManifestEntry {
  /** Name partners send as `chain` in API calls. */
  chain: string;
  rpcUrl: string;
  wsUrl: string;
  programId: string;
  priceAccount: string;
  configAccount: string;
  /** Slot of the program deployment: where indexers start. */
  deploySlot: number;
}

export interface DeploymentManifest {
  evm: EvmManifestEntry[];
  solana: SolanaManifestEntry[];
}

export const DEFAULT_MANIFEST_PATH = resolve(__dirname, "..", "data", "deployments", "local.json");

/** Writes the manifest atomically (write, then rename), so readers never see half a file. */
export function writeManifest(path: string, manifest: DeploymentManifest): void {
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(manifest, null, 2)}\n`);
  renameSync(temporary, path);
}

export function readManifest(path: string): DeploymentManifest {
  const parsed = JSON.parse(readFileSync(path, "utf8")) as Partial<DeploymentManifest>;
  return { evm: parsed.evm ?? [], solana: parsed.solana ?? [] };
}
