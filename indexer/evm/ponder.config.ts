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
const headsRelays: Record<string, string> = JSON.parse(process.env.EVM_HEADS_RELAYS ?? "{}");

/** Where Ponder reaches a chain's websocket: run.ts's relay, which falls back to polling when heads stop. */
function headsRelayOf(chain: string): string {
  const url = headsRelays[chain];
  if (url === undefined)
    throw new Error(`No heads relay for chain "${chain}"; start the indexer through run.ts.`);
  return url;
}

export default createConfig({
  database: { kind: "postgres", connectionString: databaseUrl, poolConfig: { max: 8 } },
  // Chains are independent registries: each advances as fast as its own RPC allows, and a reorg reverts only its
  // own chain's rows (under "multichain" it reverted every chain's rows written since, docs/indexers.md). It needs
  // a chainId in every table's primary key (ponder.schema.ts).
  ordering: "experimental_isolated",
  chains: Object.fromEntries(
    deployments.map((entry) => [
      entry.chain,
      {
        id: entry.chainId,
        rpc: entry.rpcUrl,
        // New heads pushed over the websocket: the poll is then only Ponder's fallback (docs/indexers.md).
        ...(entry.wsUrl === undefined ? {} : { ws: headsRelayOf(entry.chain) }),
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
