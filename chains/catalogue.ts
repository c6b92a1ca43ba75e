// Every chain of a deployment manifest as a registry client per environment: real clients over the
// manifest's RPC endpoints for production, simulated ones (same chain names, no RPC) for the sandbox, and real
// clients of the sandbox's own Solana deployments for the public Solana helpers on the sandbox host.
import type { DeploymentManifest } from "../config/manifest";
import { EvmRegistryClient } from "./evm/registryClient";
import type { RegistryCatalogue, RegistryClient } from "./registryClient";
import { SimulatedEvmRegistry, SimulatedSolanaRegistry } from "./simulated/registryClient";
import { SolanaRegistryClient } from "./solana/registryClient";

export interface RegistryCatalogueOptions {
  /** Per RPC request (default chains/rpcTimeout.ts). */
  timeoutMs?: number;
  /** Clock of the simulated registries, in ms since the epoch. */
  now?: () => number;
}

function byChain(clients: RegistryClient[]): ReadonlyMap<string, RegistryClient> {
  const map = new Map<string, RegistryClient>();
  for (const client of clients) {
    if (map.has(client.chain)) {
      throw new Error(
        `The deployment manifest names chain "${client.chain}" twice; chain names must be unique across families.`,
      );
    }
    map.set(client.chain, client);
  }
  return map;
}

export function registryCatalogue(
  manifest: DeploymentManifest,
  options: RegistryCatalogueOptions = {},
): RegistryCatalogue {
  return {
    production: byChain([
      ...manifest.evm.map((entry) => new EvmRegistryClient(entry, options)),
      ...manifest.solana.map((entry) => new SolanaRegistryClient(entry, options)),
    ]),
    sandbox: byChain([
      ...manifest.evm.map((entry) => new SimulatedEvmRegistry(entry, options)),
      ...manifest.solana.map((entry) => new SimulatedSolanaRegistry(entry, options)),
    ]),
    sandboxDeployments: byChain(
      manifest.solana.flatMap((entry) =>
        entry.sandbox === undefined
          ? []
          : [new SolanaRegistryClient({ ...entry, ...entry.sandbox }, options)],
      ),
    ),
  };
}
