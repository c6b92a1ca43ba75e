import { parseArgs } from "node:util";
import type { Address, Hex } from "viem";
import { DEFAULT_LOCAL_PRICE_USD, usdToFeedAnswer } from "../../chains/evm/settings";
import { DEFAULT_MANIFEST_PATH, readManifest } from "../../config/manifest";
import { localPriceFeedAbi } from "../../contracts/abi/localPriceFeed";
import { connectEvm } from "./clients";
import { deployerKeyFromEnvironment } from "./deploy";

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
      manifest: { type: "string", default: DEFAULT_MANIFEST_PATH },
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
