import { parseArgs } from "node:util";
import { type Address, getAddress, type Hex, isAddress, isHex } from "viem";
import {
  DEFAULT_LOCAL_PRICE_USD,
  DEFAULT_MAX_PRICE_AGE_SECONDS,
  LOCAL_FEED_DECIMALS,
  usdToFeedAnswer,
} from "../../chains/evm/settings";
import { DEFAULT_MANIFEST_PATH, type EvmManifestEntry, writeManifestEntries } from "../../config/manifest";
import { identityRegistryAbi } from "../../contracts/abi/identityRegistry";
import { localPriceFeedAbi } from "../../contracts/abi/localPriceFeed";
import { ServiceError } from "../../core/errors/serviceError";
import { DEFAULT_TIER_PRICES_USD_MICROS, type TierPricesUsdMicros } from "../../core/reservation";
import { compileContracts, readArtifact } from "./artifacts";
import { connectEvm, type EvmClients, readChainId } from "./clients";

/** Hardhat's first development account: public knowledge, funded only on local Hardhat chains. */
export const HARDHAT_DEV_PRIVATE_KEY: Hex =
  "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";
export const HARDHAT_CHAIN_ID = 31337;

export interface DeployRegistryOptions {
  /** Registry owner (two-step transferable); defaults to the deployer. */
  owner?: Address;
  /** An existing Chainlink-compatible feed. When absent a LocalPriceFeed is deployed (local chains only). */
  priceFeed?: Address;
  /** Answer of the deployed LocalPriceFeed, in whole USD per ETH. */
  localPriceUsd?: number;
  maxPriceAgeSeconds?: number;
  tierPricesUsdMicros?: TierPricesUsdMicros;
}

export interface DeployIdentityRegistryOptions extends DeployRegistryOptions {
  rpcUrl: string;
  deployerPrivateKey: Hex;
  /** Run `hardhat compile` first (a no-op when nothing changed). Default true. */
  compile?: boolean;
}

export interface EvmDeployment {
  chainId: number;
  registry: Address;
  priceFeed: Address;
  /** Block of the registry deployment: where indexers start. */
  deployBlock: number;
}

export class DeploymentError extends ServiceError {
  constructor(message: string) {
    super(message);
  }
}

export async function deployIdentityRegistry(options: DeployIdentityRegistryOptions): Promise<EvmDeployment> {
  if (options.compile ?? true) await compileContracts();
  const clients = await connectEvm(options.rpcUrl, options.deployerPrivateKey);
  return deployWithClients(clients, options);
}

/**
 * The production registry, then the sandbox's own registry reading the same price feed, so a sandbox
 * transaction can never land on production (one deployer, so one after the other: each takes the next nonce).
 */
export async function deployRegistryWithSandbox(
  options: DeployIdentityRegistryOptions,
): Promise<{ production: EvmDeployment; sandbox: EvmDeployment }> {
  const production = await deployIdentityRegistry(options);
  const sandbox = await deployIdentityRegistry({
    ...options,
    compile: false,
    priceFeed: production.priceFeed,
  });
  return { production, sandbox };
}

/** Deploys with ready clients (also used by tests and the gas bench on Hardhat's in-process network). */
export async function deployWithClients(
  clients: EvmClients,
  options: DeployRegistryOptions = {},
): Promise<EvmDeployment> {
  const { publicClient, walletClient } = clients;
  const deployer = walletClient.account.address;
  const priceFeed =
    options.priceFeed ?? (await deployLocalPriceFeed(clients, deployer, options.localPriceUsd));
  const registryArtifact = readArtifact("IdentityRegistry");
  const hash = await walletClient.deployContract({
    abi: identityRegistryAbi,
    bytecode: registryArtifact.bytecode,
    args: [
      options.owner ?? deployer,
      priceFeed,
      options.maxPriceAgeSeconds ?? DEFAULT_MAX_PRICE_AGE_SECONDS,
      [...(options.tierPricesUsdMicros ?? DEFAULT_TIER_PRICES_USD_MICROS)],
    ],
  });
  const receipt = await publicClient.waitForTransactionReceipt({ hash });
  if (receipt.status !== "success" || !receipt.contractAddress) {
    throw new DeploymentError(
      `IdentityRegistry deployment ${hash} reverted; check the feed address and options.`,
    );
  }
  return {
    chainId: publicClient.chain.id,
    registry: getAddress(receipt.contractAddress),
    priceFeed,
    deployBlock: Number(receipt.blockNumber),
  };
}

async function deployLocalPriceFeed(
  clients: EvmClients,
  owner: Address,
  priceUsd?: number,
): Promise<Address> {
  const { publicClient, walletClient } = clients;
  const hash = await walletClient.deployContract({
    abi: localPriceFeedAbi,
    bytecode: readArtifact("LocalPriceFeed").bytecode,
    args: [
      owner,
      LOCAL_FEED_DECIMALS,
      "ETH / USD (local)",
      usdToFeedAnswer(priceUsd ?? DEFAULT_LOCAL_PRICE_USD),
    ],
  });
  const receipt = await publicClient.waitForTransactionReceipt({ hash });
  if (receipt.status !== "success" || !receipt.contractAddress) {
    throw new DeploymentError(`LocalPriceFeed deployment ${hash} reverted.`);
  }
  return getAddress(receipt.contractAddress);
}

/**
 * The manifest entry of a deployment; `wsUrl` only when the RPC has a websocket (see config/manifest.ts), and
 * `sandbox` when the sandbox's own registry was deployed beside it.
 */
export function manifestEntry(
  chain: string,
  endpoints: { rpcUrl: string; wsUrl?: string | undefined },
  deployment: EvmDeployment,
  sandbox?: EvmDeployment,
): EvmManifestEntry {
  const { rpcUrl, wsUrl } = endpoints;
  return {
    chain,
    rpcUrl,
    ...(wsUrl === undefined ? {} : { wsUrl }),
    ...deployment,
    ...(sandbox === undefined ? {} : { sandbox: { registry: sandbox.registry } }),
  };
}

/** EVM_DEPLOYER_PRIVATE_KEY, or Hardhat's public development key on a Hardhat chain (31337) only. */
export function deployerKeyFromEnvironment(chainId: number): Hex {
  const fromEnv = process.env.EVM_DEPLOYER_PRIVATE_KEY;
  if (fromEnv !== undefined && fromEnv !== "") {
    if (!isHex(fromEnv) || fromEnv.length !== 66) {
      throw new DeploymentError("EVM_DEPLOYER_PRIVATE_KEY must be a 0x-prefixed 32-byte hex private key.");
    }
    return fromEnv;
  }
  if (chainId === HARDHAT_CHAIN_ID) return HARDHAT_DEV_PRIVATE_KEY;
  throw new DeploymentError(`Set EVM_DEPLOYER_PRIVATE_KEY to deploy to chain ${chainId}.`);
}

function parseMaxPriceAge(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const seconds = Number(text);
  if (!Number.isInteger(seconds) || seconds <= 0 || seconds > 0xffff_ffff) {
    throw new DeploymentError(`--max-price-age must be a positive whole number of seconds, got "${text}".`);
  }
  return seconds;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      "rpc-url": { type: "string", default: "http://127.0.0.1:8545" },
      "ws-url": { type: "string" },
      chain: { type: "string", default: "hardhat" },
      out: { type: "string", default: DEFAULT_MANIFEST_PATH },
      "price-feed": { type: "string" },
      "max-price-age": { type: "string" },
      "without-sandbox": { type: "boolean", default: false },
    },
  });
  const rpcUrl = values["rpc-url"];
  const priceFeed = values["price-feed"];
  if (priceFeed !== undefined && !isAddress(priceFeed)) {
    throw new DeploymentError(`--price-feed must be an address, got "${priceFeed}".`);
  }
  const chainId = await readChainId(rpcUrl);
  const options = {
    rpcUrl,
    deployerPrivateKey: deployerKeyFromEnvironment(chainId),
    priceFeed,
    maxPriceAgeSeconds: parseMaxPriceAge(values["max-price-age"]),
  };
  const endpoints = { rpcUrl, wsUrl: values["ws-url"] };
  const entry = values["without-sandbox"]
    ? manifestEntry(values.chain, endpoints, await deployIdentityRegistry(options))
    : (({ production, sandbox }) => manifestEntry(values.chain, endpoints, production, sandbox))(
        await deployRegistryWithSandbox(options),
      );
  writeManifestEntries(values.out, { evm: [entry] });
  process.stdout.write(`${JSON.stringify(entry)}\n`);
  const sandboxNote = entry.sandbox
    ? `, sandbox registry ${entry.sandbox.registry}`
    : ", no sandbox registry";
  console.error(
    `IdentityRegistry ${entry.registry} on chain ${chainId}${sandboxNote}; manifest: ${values.out}`,
  );
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
