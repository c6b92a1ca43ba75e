// Which Solana registry a Solana helper reads: the one named, or the only one when none is named; production's, or
// on the sandbox host the sandbox's own deployment on that chain.
import type { RegistryCatalogue, RegistryClient } from "../../chains/registryClient";
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

/**
 * The sandbox's own deployment on the Solana chain `chain` names (or on the only one): the chain resolved as on
 * production, then 409 sandbox_deployment_missing when the sandbox has no deployment there.
 */
export function sandboxSolanaRegistry(
  registries: RegistryCatalogue | undefined,
  chain: string | undefined,
): SolanaRegistryClient {
  const { chain: resolved } = solanaRegistry(registries?.production, chain);
  const deployment = registries?.sandboxDeployments?.get(resolved);
  if (deployment instanceof SolanaRegistryClient) return deployment;
  throw new ApiError("sandbox_deployment_missing", undefined, { chain: resolved });
}
