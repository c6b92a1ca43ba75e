import { parseArgs } from "node:util";
import { type Address, getAddress, type Hex, isAddress, isHex, parseAbi, zeroAddress } from "viem";
import {
  DEFAULT_LOCAL_PRICE_USD,
  DEFAULT_MAX_PRICE_AGE_SECONDS,
  LOCAL_FEED_DECIMALS,
  LOCAL_MIN_COMMITMENT_AGE_SECONDS,
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
/** Local development chains (Hardhat, Ganache and geth --dev): the only ones a LocalPriceFeed may price. */
export const LOCAL_CHAIN_IDS: readonly number[] = [HARDHAT_CHAIN_ID, 1337];

/**
 * Default sanity bounds on the feed's answer, in whole USD per native token (scaled by the feed's decimals at
 * deploy time). They fit ETH/USD: a feed that reports ETH below 100 USD or above 100,000 USD is taken as broken
 * (for instance clamped at its own minAnswer) and refused. Other native tokens need their own bounds.
 */
export const DEFAULT_MIN_ANSWER_USD = 100n;
export const DEFAULT_MAX_ANSWER_USD = 100_000n;
/**
 * Default minimum commitment age on public chains. A copier who reads a pending reveal must commit and wait
 * this long before its own reveal, so the creator's reveal would have to sit unmined for a minute to lose.
 * Local chains use LOCAL_MIN_COMMITMENT_AGE_SECONDS (1 s).
 */
export const DEFAULT_MIN_COMMITMENT_AGE_SECONDS = 60;
/** Chainlink's suggested grace period after an L2 sequencer comes back, used when a sequencer feed is given. */
export const DEFAULT_SEQUENCER_GRACE_PERIOD_SECONDS = 3_600;

const aggregatorDecimalsAbi = parseAbi(["function decimals() view returns (uint8)"]);

export interface DeployRegistryOptions {
  /** Registry owner (two-step transferable); defaults to the deployer. */
  owner?: Address;
  /** An existing Chainlink-compatible feed. When absent a LocalPriceFeed is deployed (local chains only). */
  priceFeed?: Address;
  /** Answer of the deployed LocalPriceFeed, in whole USD per ETH. */
  localPriceUsd?: number;
  maxPriceAgeSeconds?: number;
  tierPricesUsdMicros?: TierPricesUsdMicros;
  /** Feed answers below this are refused (feed units). Default DEFAULT_MIN_ANSWER_USD at the feed's decimals. */
  minAnswer?: bigint;
  /** Feed answers above this are refused (feed units). Default DEFAULT_MAX_ANSWER_USD at the feed's decimals. */
  maxAnswer?: bigint;
  /** Chainlink L2 sequencer uptime feed; absent or the zero address: no sequencer check (L1 chains). */
  sequencerUptimeFeed?: Address;
  /** Default DEFAULT_SEQUENCER_GRACE_PERIOD_SECONDS with a sequencer feed, else 0. */
  sequencerGracePeriodSeconds?: number;
  /** Default 1 s on local chains, DEFAULT_MIN_COMMITMENT_AGE_SECONDS elsewhere. */
  minCommitmentAgeSeconds?: number;
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
  minAnswer: bigint;
  maxAnswer: bigint;
  /** The zero address when the registry checks no sequencer. */
  sequencerUptimeFeed: Address;
  sequencerGracePeriodSeconds: number;
  minCommitmentAgeSeconds: number;
}

export class DeploymentError extends ServiceError {
  constructor(message: string) {
    super(message);
  }
}

export function isLocalChain(chainId: number): boolean {
  return LOCAL_CHAIN_IDS.includes(chainId);
}

/** Refuses to price a public chain with the test-only LocalPriceFeed, whose owner can set any price. */
export function requireFeedFor(chainId: number, priceFeed: Address | undefined): void {
  if (priceFeed !== undefined || isLocalChain(chainId)) return;
  throw new DeploymentError(
    `Chain ${chainId} is not a local chain (${LOCAL_CHAIN_IDS.join(", ")}): pass --price-feed <address> ` +
      "(the library's priceFeed option) with the chain's Chainlink ETH/USD feed. Without it a test-only " +
      "LocalPriceFeed would be deployed, whose owner can set any price.",
  );
}

export async function deployIdentityRegistry(options: DeployIdentityRegistryOptions): Promise<EvmDeployment> {
  requireFeedFor(await readChainId(options.rpcUrl), options.priceFeed);
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
  const chainId = await publicClient.getChainId();
  requireFeedFor(chainId, options.priceFeed);
  const deployer = walletClient.account.address;
  const priceFeed =
    options.priceFeed ?? (await deployLocalPriceFeed(clients, deployer, options.localPriceUsd));
  const decimals =
    options.priceFeed === undefined
      ? LOCAL_FEED_DECIMALS
      : await publicClient.readContract({
          address: priceFeed,
          abi: aggregatorDecimalsAbi,
          functionName: "decimals",
        });
  const sequencerUptimeFeed = options.sequencerUptimeFeed ?? zeroAddress;
  const settings = {
    owner: options.owner ?? deployer,
    priceFeed,
    maxPriceAgeSeconds: options.maxPriceAgeSeconds ?? DEFAULT_MAX_PRICE_AGE_SECONDS,
    tierPricesUsdMicros: [...(options.tierPricesUsdMicros ?? DEFAULT_TIER_PRICES_USD_MICROS)] as const,
    minAnswer: options.minAnswer ?? DEFAULT_MIN_ANSWER_USD * 10n ** BigInt(decimals),
    maxAnswer: options.maxAnswer ?? DEFAULT_MAX_ANSWER_USD * 10n ** BigInt(decimals),
    sequencerUptimeFeed,
    sequencerGracePeriodSeconds:
      options.sequencerGracePeriodSeconds ??
      (sequencerUptimeFeed === zeroAddress ? 0 : DEFAULT_SEQUENCER_GRACE_PERIOD_SECONDS),
    minCommitmentAgeSeconds:
      options.minCommitmentAgeSeconds ??
      (isLocalChain(chainId) ? LOCAL_MIN_COMMITMENT_AGE_SECONDS : DEFAULT_MIN_COMMITMENT_AGE_SECONDS),
  };
  const hash = await walletClient.deployContract({
    abi: identityRegistryAbi,
    bytecode: readArtifact("IdentityRegistry").bytecode,
    args: [settings],
  });
  const receipt = await publicClient.waitForTransactionReceipt({ hash });
  if (receipt.status !== "success" || !receipt.contractAddress) {
    throw new DeploymentError(
      `IdentityRegistry deployment ${hash} reverted; check the feed address and options.`,
    );
  }
  return {
    chainId,
    registry: getAddress(receipt.contractAddress),
    priceFeed,
    deployBlock: Number(receipt.blockNumber),
    minAnswer: settings.minAnswer,
    maxAnswer: settings.maxAnswer,
    sequencerUptimeFeed: getAddress(sequencerUptimeFeed),
    sequencerGracePeriodSeconds: settings.sequencerGracePeriodSeconds,
    minCommitmentAgeSeconds: settings.minCommitmentAgeSeconds,
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
    // Decimal strings: an 18-decimal feed's bounds exceed what a JSON number holds exactly.
    minAnswer: deployment.minAnswer.toString(),
    maxAnswer: deployment.maxAnswer.toString(),
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

/** A whole number of seconds from a CLI flag, within [min, max]. */
function parseSeconds(flag: string, text: string | undefined, min: number, max: number): number | undefined {
  if (text === undefined) return undefined;
  const seconds = Number(text);
  if (!/^[0-9]+$/.test(text) || !Number.isSafeInteger(seconds) || seconds < min || seconds > max) {
    throw new DeploymentError(
      `--${flag} must be a whole number of seconds from ${min} to ${max}, got "${text}".`,
    );
  }
  return seconds;
}

/** A feed answer (feed units) from a CLI flag. */
function parseAnswer(flag: string, text: string | undefined): bigint | undefined {
  if (text === undefined) return undefined;
  if (!/^[1-9][0-9]*$/.test(text)) {
    throw new DeploymentError(
      `--${flag} must be a positive whole number in the feed's units, got "${text}".`,
    );
  }
  return BigInt(text);
}

function parseAddress(flag: string, text: string | undefined): Address | undefined {
  if (text === undefined) return undefined;
  if (!isAddress(text)) throw new DeploymentError(`--${flag} must be an address, got "${text}".`);
  return getAddress(text);
}

const UINT32_MAX = 0xffff_ffff;
/** The registry's MAX_COMMITMENT_AGE: the minimum age must stay below it. */
const MAX_COMMITMENT_AGE_SECONDS = 86_400;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      "rpc-url": { type: "string", default: "http://127.0.0.1:8545" },
      "ws-url": { type: "string" },
      chain: { type: "string", default: "hardhat" },
      out: { type: "string", default: DEFAULT_MANIFEST_PATH },
      "price-feed": { type: "string" },
      "max-price-age": { type: "string" },
      "min-answer": { type: "string" },
      "max-answer": { type: "string" },
      "sequencer-uptime-feed": { type: "string" },
      "sequencer-grace-period": { type: "string" },
      "min-commitment-age": { type: "string" },
      "without-sandbox": { type: "boolean", default: false },
    },
  });
  const rpcUrl = values["rpc-url"];
  const priceFeed = parseAddress("price-feed", values["price-feed"]);
  const chainId = await readChainId(rpcUrl);
  requireFeedFor(chainId, priceFeed);
  const options: DeployIdentityRegistryOptions = {
    rpcUrl,
    deployerPrivateKey: deployerKeyFromEnvironment(chainId),
    priceFeed,
    maxPriceAgeSeconds: parseSeconds("max-price-age", values["max-price-age"], 1, UINT32_MAX),
    minAnswer: parseAnswer("min-answer", values["min-answer"]),
    maxAnswer: parseAnswer("max-answer", values["max-answer"]),
    sequencerUptimeFeed: parseAddress("sequencer-uptime-feed", values["sequencer-uptime-feed"]),
    sequencerGracePeriodSeconds: parseSeconds(
      "sequencer-grace-period",
      values["sequencer-grace-period"],
      0,
      UINT32_MAX,
    ),
    minCommitmentAgeSeconds: parseSeconds(
      "min-commitment-age",
      values["min-commitment-age"],
      1,
      MAX_COMMITMENT_AGE_SECONDS - 1,
    ),
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
