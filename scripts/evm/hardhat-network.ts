// Hardhat's in-process network for tests and the gas bench: compiles (offline solc-js) inside this
// process and hands out viem clients, without any node or port.
import type {} from "@nomicfoundation/hardhat-viem";
import type { Account, Chain, PublicClient, Transport, WalletClient } from "viem";

type HardhatRuntime = typeof import("hardhat");

export interface InProcessNetwork {
  hre: HardhatRuntime;
  publicClient: PublicClient<Transport, Chain>;
  /** Funded development accounts; the first one deploys. */
  wallets: WalletClient<Transport, Chain, Account>[];
}

export async function startInProcessNetwork(): Promise<InProcessNetwork> {
  // Loaded lazily: importing Hardhat builds its runtime environment from hardhat.config.ts.
  const hre: HardhatRuntime = require("hardhat");
  await hre.run("compile", { quiet: true });
  const publicClient = await hre.viem.getPublicClient();
  const wallets = await hre.viem.getWalletClients();
  return { hre, publicClient, wallets };
}
