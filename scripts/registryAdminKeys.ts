// The registries' admin credentials for keeping their decision signer sets in step (services/signing/
// syncRegistrySigners.ts): from the environment, or the public development keys on local chains only, as the deploy
// scripts do. Read only when a registry needs a change; never printed.
import { readFileSync } from "node:fs";
import { Keypair } from "@solana/web3.js";
import { isHex } from "viem";
import type { EvmManifestEntry, SolanaManifestEntry } from "../config/manifest";
import { ServiceError } from "../core/errors/serviceError";
import type { RegistryAdminKeys } from "../services/signing/syncRegistrySigners";
import { HARDHAT_CHAIN_ID, HARDHAT_DEV_PRIVATE_KEY } from "./evm/deploy";
import { devWallet } from "./localnet/devWallets";

const EVM_OWNER_KEY_VARIABLE = "EVM_REGISTRY_OWNER_PRIVATE_KEY";
const SOLANA_ADMIN_KEYPAIR_VARIABLE = "SOLANA_REGISTRY_ADMIN_KEYPAIR";
const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

class RegistryAdminKeyError extends ServiceError {
  constructor(message: string) {
    super(message);
  }
}

/** The variable's key, or Hardhat's public development key on a Hardhat chain only (as deploy:evm). */
function evmOwnerKey(entry: EvmManifestEntry) {
  const fromEnv = process.env[EVM_OWNER_KEY_VARIABLE];
  if (fromEnv !== undefined && fromEnv !== "") {
    if (!isHex(fromEnv) || fromEnv.length !== 66) {
      throw new RegistryAdminKeyError(
        `${EVM_OWNER_KEY_VARIABLE} must be a 0x-prefixed 32-byte hex private key.`,
      );
    }
    return { privateKey: fromEnv, source: EVM_OWNER_KEY_VARIABLE };
  }
  if (entry.chainId === HARDHAT_CHAIN_ID) {
    return { privateKey: HARDHAT_DEV_PRIVATE_KEY, source: "Hardhat's development key, chain 31337 only" };
  }
  throw new RegistryAdminKeyError(
    `Set ${EVM_OWNER_KEY_VARIABLE} to the private key of the registry owner on ${entry.chain} (chain ${entry.chainId}).`,
  );
}

/** A keypair file as solana-keygen writes it; what is wrong is named without echoing the file's content. */
function readAdminKeypair(path: string): Keypair {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new RegistryAdminKeyError(
      `${SOLANA_ADMIN_KEYPAIR_VARIABLE} ${path} cannot be read: ${(error as Error).message}`,
    );
  }
  try {
    return Keypair.fromSecretKey(Uint8Array.from(JSON.parse(text) as number[]));
  } catch {
    throw new RegistryAdminKeyError(
      `${SOLANA_ADMIN_KEYPAIR_VARIABLE} ${path} is not a keypair file (a JSON array of 64 bytes, as solana-keygen writes).`,
    );
  }
}

/** The variable's keypair file, or the localnet's deployer on a cluster of this machine only (as deploy:solana). */
function solanaAdminKeypair(entry: SolanaManifestEntry) {
  const path = process.env[SOLANA_ADMIN_KEYPAIR_VARIABLE];
  if (path !== undefined && path !== "") {
    return { keypair: readAdminKeypair(path), source: `${SOLANA_ADMIN_KEYPAIR_VARIABLE} ${path}` };
  }
  if (LOOPBACK_HOSTS.has(new URL(entry.rpcUrl).hostname)) {
    return { keypair: devWallet("deployer").solana, source: "the localnet's development deployer" };
  }
  throw new RegistryAdminKeyError(
    `Set ${SOLANA_ADMIN_KEYPAIR_VARIABLE} to the keypair file of the registry admin on ${entry.chain}.`,
  );
}

export const REGISTRY_ADMIN_KEYS: RegistryAdminKeys = {
  evmOwner: evmOwnerKey,
  solanaAdmin: solanaAdminKeypair,
};
