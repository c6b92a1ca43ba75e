// How the API reaches a chain's registry: the client for a named chain (400 for an unknown one) and chain errors
// as API errors (a stale price, an RPC that does not answer), so every route fails closed the same way.
import {
  ChainUnavailableError,
  PriceUnavailableError,
  type RegistryClient,
} from "../../chains/registryClient";
import { ApiError } from "../../core/errors/catalogue";

/** The registry client for `chain` in the environment, or 400 naming where the chains are listed. */
export function registryFor(
  registries: ReadonlyMap<string, RegistryClient> | undefined,
  chain: string,
): RegistryClient {
  if (registries === undefined) {
    throw new ApiError("service_unavailable", "No chain registries are configured on this service.", {
      cause: "registries",
    });
  }
  const registry = registries.get(chain);
  if (registry === undefined) {
    throw new ApiError("invalid_request", `Unknown chain ${chain}; GET /v1/chains lists the chains.`, {
      field: "chain",
      chains: [...registries.keys()],
    });
  }
  return registry;
}

/** Chain reads fail closed: a stale price is its own 503, any other RPC failure is service_unavailable. */
export async function fromChain<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof PriceUnavailableError) {
      throw new ApiError("price_unavailable", error.message, { chain: error.chain, detail: error.detail });
    }
    if (error instanceof ChainUnavailableError) {
      throw new ApiError("service_unavailable", "The chain's RPC endpoint did not answer; retry shortly.", {
        cause: "chain",
        chain: error.chain,
      });
    }
    throw error;
  }
}
