// The localnet as tests start it, and the viem chain of its EVM entry.
import { type Chain, defineChain } from "viem";
import type { EvmManifestEntry } from "../../config/manifest";
import { type Localnet, startLocalnet } from "../../scripts/localnet";

/**
 * Both chains on free ports, no manifest file and no price timer: the deploy's price is the last one published
 * until a test refreshes it, so a stale price stays stale.
 */
export function startQuietLocalnet(options: { slotMs?: number } = {}): Promise<Localnet> {
  return startLocalnet({
    evmPort: 0,
    solanaPort: 0,
    ...options,
    manifestPath: null,
    priceRefreshMs: 3_600_000,
  });
}

/** The viem chain of a localnet EVM entry (Hardhat), for wallet and public clients. */
export function viemChainOf(entry: Pick<EvmManifestEntry, "chainId" | "chain" | "rpcUrl">): Chain {
  return defineChain({
    id: entry.chainId,
    name: entry.chain,
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [entry.rpcUrl] } },
  });
}
