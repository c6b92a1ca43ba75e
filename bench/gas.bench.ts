// Gas of the EVM IdentityRegistry on Hardhat's in-process network: `npm run bench -- gas`.
import { type Hash, keccak256, toHex } from "viem";
import { DEFAULT_LOCAL_PRICE_USD, usdToFeedAnswer } from "../chains/evm/settings";
import { identityRegistryAbi } from "../contracts/abi/identityRegistry";
import { localPriceFeedAbi } from "../contracts/abi/localPriceFeed";
import { deployWithClients } from "../scripts/evm/deploy";
import { startInProcessNetwork } from "../scripts/evm/hardhat-network";
import type { Emit } from "./run";

const ONE_DAY = 86_400;
const PARTNER_REF = keccak256(toHex("bench-partner"));

export async function run(emit: Emit): Promise<void> {
  const { hre, publicClient, wallets } = await startInProcessNetwork();
  const [deployer, ...launchers] = wallets;
  if (!deployer || launchers.length < 6) throw new Error("The bench needs 7 funded Hardhat accounts.");
  const gasOf = async (hash: Hash): Promise<bigint> =>
    (await publicClient.waitForTransactionReceipt({ hash })).gasUsed;

  // Automine puts each transaction in its own block: the feed, then the registry.
  const deployBlock = await publicClient.getBlockNumber();
  const deployment = await deployWithClients({ publicClient, walletClient: deployer });
  const deployReceipts = await Promise.all(
    [deployBlock + 1n, deployBlock + 2n].map((blockNumber) =>
      publicClient.getBlock({ blockNumber, includeTransactions: true }),
    ),
  );
  const [feedGas, registryGas] = await Promise.all(
    deployReceipts.map(async (block) => gasOf(block.transactions[0]?.hash as Hash)),
  );
  emit("deploy_price_feed", Number(feedGas), "gas");
  emit("deploy_registry", Number(registryGas), "gas");

  const registry = deployment.registry;
  const fee = await publicClient.readContract({
    address: registry,
    abi: identityRegistryAbi,
    functionName: "quote",
    args: [ONE_DAY],
  });
  const reserve = (launcherIndex: number, name: string, ticker: string, value = fee) =>
    (launchers[launcherIndex] ?? deployer).writeContract({
      address: registry,
      abi: identityRegistryAbi,
      functionName: "reserve",
      args: [name, ticker, ONE_DAY, PARTNER_REF],
      value,
    });

  // Warm the contract with one reservation so figures are those of a registry in use.
  await gasOf(await reserve(5, "Warmup", "WARM"));
  // Lengths are those of the folded strings, which decide storage-free work and event size.
  const cases: [string, number, string, string][] = [
    ["reserve_4_4", 0, "Moon", "MOON"],
    ["reserve_13_5", 1, "Dogwifhatmoon", "WIFHM"],
    ["reserve_64_10", 2, "A".repeat(64), "TICKERABCD"],
  ];
  for (const [metric, launcher, name, ticker] of cases) {
    const gas = await gasOf(await reserve(launcher, name, ticker));
    emit(metric, Number(gas), "gas");
    console.error(`${metric}: ${gas} (fresh wallet, fresh pair, exact payment)`);
  }
  emit("reserve_4_4_second_of_wallet", Number(await gasOf(await reserve(0, "Mars", "MARS"))), "gas");
  emit("reserve_4_4_refund_excess", Number(await gasOf(await reserve(3, "Luna", "LUNA", fee * 2n))), "gas");

  // Time travel leaves the feed behind: publish a fresh answer after each jump.
  const travel = async (seconds: number): Promise<void> => {
    await hre.network.provider.send("evm_increaseTime", [seconds]);
    await gasOf(
      await deployer.writeContract({
        address: deployment.priceFeed,
        abi: localPriceFeedAbi,
        functionName: "setAnswer",
        args: [usdToFeedAnswer(DEFAULT_LOCAL_PRICE_USD)],
      }),
    );
  };

  // Renewal opens 12 hours before expiry.
  await travel(ONE_DAY - 6 * 3600);
  const [nameHash, tickerHash] = await publicClient.readContract({
    address: registry,
    abi: identityRegistryAbi,
    functionName: "identityHashes",
    args: ["Moon", "MOON"],
  });
  const renewHash = await (launchers[0] ?? deployer).writeContract({
    address: registry,
    abi: identityRegistryAbi,
    functionName: "renew",
    args: [nameHash, tickerHash, ONE_DAY, PARTNER_REF],
    value: fee,
  });
  emit("renew", Number(await gasOf(renewHash)), "gas");

  // After expiry another wallet takes the expired pair over (record slot already non-zero).
  await travel(2 * ONE_DAY);
  emit("reserve_reuse_expired_pair", Number(await gasOf(await reserve(4, "Dogwifhatmoon", "WIFHM"))), "gas");
}
