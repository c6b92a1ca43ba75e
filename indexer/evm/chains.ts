// Which EVM chains the Ponder app indexes: every `evm` entry of the deployment manifest, with the cache
// policy of each. Shared by ponder.config.ts and run.ts, so both agree on what a deployment indexes.
import { type DeploymentManifest, type EvmManifestEntry, ManifestError } from "../../config/manifest";

/** Chain ids of development nodes (Hardhat, Anvil/Ganache): their history is rewritten freely, so no RPC cache. */
export const LOCAL_CHAIN_IDS: ReadonlySet<number> = new Set([31337, 1337]);

/** The manifest's EVM entries; refuses a manifest with none (the EVM indexer would have nothing to do). */
export function evmChainsToIndex(manifest: DeploymentManifest, manifestPath: string): EvmManifestEntry[] {
  if (manifest.evm.length === 0) {
    throw new ManifestError(
      `The deployment manifest ${manifestPath} has no "evm" entries: nothing to index.`,
    );
  }
  return manifest.evm;
}
