// The EVM part of the deployment manifest (data/deployments/local.json in local runs), shared with the
// Solana deployer: writing an EVM entry keeps every other entry and section of the file.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { Address } from "viem";

export interface EvmManifestEntry {
  /** Name partners send as `chain` in API calls. */
  chain: string;
  chainId: number;
  rpcUrl: string;
  registry: Address;
  priceFeed: Address;
  deployBlock: number;
}

export interface DeploymentManifest {
  evm: EvmManifestEntry[];
  solana: unknown[];
  [section: string]: unknown;
}

export function readManifest(path: string): DeploymentManifest {
  if (!existsSync(path)) return { evm: [], solana: [] };
  const parsed = JSON.parse(readFileSync(path, "utf8")) as Partial<DeploymentManifest>;
  return { ...parsed, evm: parsed.evm ?? [], solana: parsed.solana ?? [] };
}

/** The manifest with `entry` replacing any EVM entry of the same chain name. */
export function withEvmEntry(manifest: DeploymentManifest, entry: EvmManifestEntry): DeploymentManifest {
  return { ...manifest, evm: [...manifest.evm.filter((existing) => existing.chain !== entry.chain), entry] };
}

export function writeEvmManifestEntry(path: string, entry: EvmManifestEntry): void {
  const manifest = withEvmEntry(readManifest(path), entry);
  mkdirSync(dirname(path), { recursive: true });
  // Write then rename, so a reader never sees a half-written file.
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(manifest, null, 2)}\n`);
  renameSync(temporary, path);
}
