// Where the guarded launches go: the local chains of a running `npm start`, read from the deployment manifest it
// writes (config/manifest.ts documents every field). The launches target the SANDBOX's own registries, because a
// sandbox key's on-chain decisions are signed for them. Read as plain JSON: the example depends on the SDK only.
import { readFileSync } from "node:fs";

export interface LocalEvmChain {
  /** The chain's name in API calls. */
  chain: string;
  chainId: number;
  rpcUrl: string;
  /** The sandbox's IdentityRegistry: the one a factory must obey for sandbox decisions. */
  sandboxRegistry: `0x${string}`;
}

export interface LocalSolanaChain {
  chain: string;
  rpcUrl: string;
  /** The sandbox's identity registry program: the one a launch program must obey for sandbox decisions. */
  sandboxRegistryProgram: string;
}

export interface LocalChains {
  evm: LocalEvmChain;
  solana: LocalSolanaChain;
}

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

class LocalChainsError extends Error {}

type Json = Record<string, unknown>;

function readJson(path: string): Json {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    throw new LocalChainsError(
      `No deployment manifest at ${path}: start the service with \`npm start\` (it writes one for its local chains), or set DEPLOYMENT_MANIFEST (or DATA_DIR) as the service has it.`,
    );
  }
  return JSON.parse(text) as Json;
}

/** `manifest[family][0]`, whose `sandbox` deployment is there. */
function firstWithSandbox(manifest: Json, family: "evm" | "solana", path: string): Json {
  const entry = (manifest[family] as Json[] | undefined)?.[0];
  if (entry?.sandbox === undefined) {
    throw new LocalChainsError(
      `The deployment manifest ${path} has no ${family} chain with a sandbox deployment (${family}[0].sandbox): run the example beside \`npm start\`, whose local chains have one.`,
    );
  }
  return entry;
}

/** The guarded launches fund wallets from public development keys and airdrops: this machine's chains only. */
function localRpc(entry: Json, path: string): string {
  const rpcUrl = String(entry.rpcUrl);
  if (!LOOPBACK_HOSTS.has(new URL(rpcUrl).hostname)) {
    throw new LocalChainsError(
      `${entry.chain} in ${path} is at ${rpcUrl}: the guarded launches run only on local chains (\`npm start\` without DEPLOYMENT_MANIFEST).`,
    );
  }
  return rpcUrl;
}

/** The first EVM and Solana chains of the manifest at `path`, with their sandbox registries. */
export function readLocalChains(path: string): LocalChains {
  const manifest = readJson(path);
  const evm = firstWithSandbox(manifest, "evm", path);
  const solana = firstWithSandbox(manifest, "solana", path);
  return {
    evm: {
      chain: String(evm.chain),
      chainId: Number(evm.chainId),
      rpcUrl: localRpc(evm, path),
      sandboxRegistry: (evm.sandbox as Json).registry as `0x${string}`,
    },
    solana: {
      chain: String(solana.chain),
      rpcUrl: localRpc(solana, path),
      sandboxRegistryProgram: String((solana.sandbox as Json).programId),
    },
  };
}
