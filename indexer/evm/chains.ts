// Which EVM chains the Ponder app indexes: every `evm` entry of the deployment manifest, with the polling
// interval and cache policy the runner passes through the environment. Shared by ponder.config.ts and
// run.ts, so both agree on what a deployment indexes.
import { readFileSync } from "node:fs";

export interface EvmDeploymentEntry {
  chain: string;
  chainId: number;
  rpcUrl: string;
  registry: `0x${string}`;
  deployBlock: number;
}

export class ManifestError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ManifestError";
  }
}

/** Chain ids of development nodes (Hardhat, Anvil/Ganache): their history is rewritten freely, so no RPC cache. */
export const LOCAL_CHAIN_IDS: ReadonlySet<number> = new Set([31337, 1337]);

const CHAIN_NAME = /^[a-z][a-z0-9_-]{0,31}$/;
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** The manifest's EVM entries, validated; throws ManifestError naming the field to fix. */
export function readEvmDeployments(manifestPath: string): EvmDeploymentEntry[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(manifestPath, "utf8"));
  } catch (error) {
    throw new ManifestError(
      `Cannot read the deployment manifest at ${manifestPath} (${(error as Error).message}). Run \`npm run localnet\` or pass the path of your manifest.`,
    );
  }
  const entries = (parsed as { evm?: unknown }).evm;
  if (!Array.isArray(entries) || entries.length === 0) {
    throw new ManifestError(`The manifest at ${manifestPath} has no "evm" entries: nothing to index.`);
  }
  return entries.map((entry, index) => validEntry(entry, `${manifestPath} evm[${index}]`));
}

function validEntry(value: unknown, where: string): EvmDeploymentEntry {
  const entry = value as Partial<EvmDeploymentEntry>;
  if (typeof entry.chain !== "string" || !CHAIN_NAME.test(entry.chain)) {
    throw new ManifestError(`${where}: "chain" must be a lowercase name such as "base" or "hardhat".`);
  }
  if (!Number.isSafeInteger(entry.chainId) || (entry.chainId as number) <= 0) {
    throw new ManifestError(`${where}: "chainId" must be a positive integer.`);
  }
  if (typeof entry.rpcUrl !== "string" || !/^(https?|wss?):\/\//.test(entry.rpcUrl)) {
    throw new ManifestError(`${where}: "rpcUrl" must be an http(s) or ws(s) URL.`);
  }
  if (typeof entry.registry !== "string" || !ADDRESS.test(entry.registry)) {
    throw new ManifestError(`${where}: "registry" must be a 0x-prefixed 20-byte address.`);
  }
  if (!Number.isSafeInteger(entry.deployBlock) || (entry.deployBlock as number) < 0) {
    throw new ManifestError(`${where}: "deployBlock" must be the block number of the registry deployment.`);
  }
  return {
    chain: entry.chain,
    chainId: entry.chainId as number,
    rpcUrl: entry.rpcUrl,
    registry: entry.registry as `0x${string}`,
    deployBlock: entry.deployBlock as number,
  };
}
