// Ponder configuration, built from the deployment manifest named by IDENTITY_MANIFEST. Started by run.ts,
// which sets the environment read here; Ponder's process reads (and validates) the manifest itself. See
// docs/indexers.md.
import { createConfig } from "ponder";
import { readManifest } from "../../config/manifest";
import { identityRegistryAbi } from "../../contracts/abi/identityRegistry";
import { evmChainsToIndex, LOCAL_CHAIN_IDS } from "./chains";

const manifestPath = process.env.IDENTITY_MANIFEST;
const databaseUrl = process.env.DATABASE_URL;
if (!manifestPath || !databaseUrl) {
  throw new Error(
    "Start the EVM indexer with `npm run indexer:evm` (it sets IDENTITY_MANIFEST and DATABASE_URL).",
  );
}
const pollingInterval = Number(process.env.EVM_POLLING_INTERVAL_MS ?? 1000);
const deployments = evmChainsToIndex(readManifest(manifestPath), manifestPath);

export default createConfig({
  database: { kind: "postgres", connectionString: databaseUrl, poolConfig: { max: 8 } },
  // Chains are independent registries: each advances as fast as its own RPC allows.
  ordering: "multichain",
  chains: Object.fromEntries(
    deployments.map((entry) => [
      entry.chain,
      {
        id: entry.chainId,
        rpc: entry.rpcUrl,
        // New heads pushed over the websocket: the poll is then only Ponder's fallback (docs/indexers.md).
        ...(entry.wsUrl === undefined ? {} : { ws: entry.wsUrl }),
        pollingInterval,
        disableCache: LOCAL_CHAIN_IDS.has(entry.chainId),
      },
    ]),
  ),
  contracts: {
    IdentityRegistry: {
      abi: identityRegistryAbi,
      chain: Object.fromEntries(
        deployments.map((entry) => [entry.chain, { address: entry.registry, startBlock: entry.deployBlock }]),
      ),
    },
  },
});
