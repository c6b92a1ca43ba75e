// Named development wallets for local chains. Their keys derive from public seeds (Solana) and
// Hardhat's public test mnemonic (EVM): anyone can recompute them, so they hold value only locally.
import { createHash } from "node:crypto";
import { Keypair, LAMPORTS_PER_SOL } from "@solana/web3.js";
import { type HDAccount, mnemonicToAccount } from "viem/accounts";

export const DEV_WALLET_NAMES = ["deployer", "creator", "launcher", "operator"] as const;
export type DevWalletName = (typeof DEV_WALLET_NAMES)[number];

/** Hardhat's default accounts come from this mnemonic, each funded with 10,000 ETH by the node. */
const HARDHAT_MNEMONIC = "test test test test test test test test test test test junk";
export const SOLANA_DEV_WALLET_LAMPORTS = 1_000n * BigInt(LAMPORTS_PER_SOL);

export interface DevWallet {
  name: DevWalletName;
  solana: Keypair;
  /** Hardhat account #i for the i-th name (the deployer is account #0, which deploys the registry). */
  evm: HDAccount;
}

export function devWallet(name: DevWalletName): DevWallet {
  const seed = createHash("sha256").update(`localnet dev wallet: ${name}`).digest();
  return {
    name,
    solana: Keypair.fromSeed(seed),
    evm: mnemonicToAccount(HARDHAT_MNEMONIC, { addressIndex: DEV_WALLET_NAMES.indexOf(name) }),
  };
}

export function devWallets(): DevWallet[] {
  return DEV_WALLET_NAMES.map(devWallet);
}
