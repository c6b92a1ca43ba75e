// Publishes a fresh answer on a LocalPriceFeed, so local reservations keep passing the registry's
// staleness bound. Library: `refreshLocalPrice(...)`; CLI: `npm run price:evm -- [--usd 3000]
// [--manifest FILE] [--chain NAME]` (key in EVM_DEPLOYER_PRIVATE_KEY or Hardhat's dev key).
import { join } from "node:path";
import { parseArgs } from "node:util";
import type { Address, Hex } from "viem";
import { localPriceFeedAbi } from "../../contracts/abi/localPriceFeed";
import { REPO_ROOT } from "./artifacts";
import { connectEvm } from "./clients";
import { DEFAULT_LOCAL_PRICE_USD, deployerKeyFromEnvironment, usdToFeedAnswer } from "./deploy";
import { readManifest } from "./manifest";

export interface RefreshLocalPriceOptions {
  rpcUrl: string;
  ownerPrivateKey: Hex;
  priceFeed: Address;
  priceUsd?: number;
}

/** Sets the feed's answer as of the next block; resolves with the mined block number. */
export async function refreshLocalPrice(options: RefreshLocalPriceOptions): Promise<bigint> {
  const { publicClient, walletClient } = await connectEvm(options.rpcUrl, options.ownerPrivateKey);
  const hash = await walletClient.writeContract({
    address: options.priceFeed,
    abi: localPriceFeedAbi,
    functionName: "setAnswer",
    args: [usdToFeedAnswer(options.priceUsd ?? DEFAULT_LOCAL_PRICE_USD)],
  });
  const receipt = await publicClient.waitForTransactionReceipt({ hash });
  if (receipt.status !== "success")
    throw new Error(`setAnswer ${hash} reverted: is the key the feed's owner?`);
  return receipt.blockNumber;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      usd: { type: "string", default: String(DEFAULT_LOCAL_PRICE_USD) },
      manifest: { type: "string", default: join(REPO_ROOT, "data/deployments/local.json") },
      chain: { type: "string", default: "hardhat" },
    },
  });
  const entry = readManifest(values.manifest).evm.find((candidate) => candidate.chain === values.chain);
  if (!entry)
    throw new Error(
      `No EVM chain "${values.chain}" in ${values.manifest}; deploy first (npm run deploy:evm).`,
    );
  const block = await refreshLocalPrice({
    rpcUrl: entry.rpcUrl,
    ownerPrivateKey: deployerKeyFromEnvironment(entry.chainId),
    priceFeed: entry.priceFeed,
    priceUsd: Number(values.usd),
  });
  console.error(`Price feed ${entry.priceFeed} set to ${values.usd} USD in block ${block}.`);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
