// Which production Solana registry a Solana helper reads: the one named, or the only one when none is named.
import type { RegistryClient } from "../../chains/registryClient";
import { SolanaRegistryClient } from "../../chains/solana/registryClient";
import { ApiError } from "../../core/errors/catalogue";

/** The Solana registry named by `chain`, or the only one when `chain` is omitted; else 400 or 503. */
export function solanaRegistry(
  registries: ReadonlyMap<string, RegistryClient> | undefined,
  chain: string | undefined,
): SolanaRegistryClient {
  if (registries === undefined) {
    throw new ApiError("service_unavailable", "No chain registries are configured on this service.", {
      cause: "registries",
    });
  }
  const solana = [...registries.values()].filter(
    (client): client is SolanaRegistryClient => client instanceof SolanaRegistryClient,
  );
  const names = solana.map((client) => client.chain);
  if (chain !== undefined) {
    const found = solana.find((client) => client.chain === chain);
    if (found) return found;
    throw new ApiError(
      "invalid_request",
      `${chain} is not a Solana chain of this service; use one of: ${names.join(", ") || "(none)"}.`,
      { field: "chain", chains: names },
    );
  }
  const [only, ...others] = solana;
  if (only === undefined) {
    throw new ApiError("service_unavailable", "This service serves no Solana chain.", {
      cause: "registries",
    });
  }
  if (others.length > 0) {
    throw new ApiError(
      "invalid_request",
      `Several Solana chains are served; pass chain (${names.join(", ")}).`,
      {
        field: "chain",
        chains: names,
      },
    );
  }
  return only;
}
