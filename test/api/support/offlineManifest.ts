// A deployment manifest of chain names and addresses only, with a sandbox deployment on each chain: the
// sandbox's simulated registries never call its RPC URLs, so routes run without local chains.
import { Keypair } from "@solana/web3.js";
import type { DeploymentManifest } from "../../../config/manifest";

export const OFFLINE_REGISTRY = "0x5fbdb2315678afecb367f032d93f642f64180aa3";
export const OFFLINE_SANDBOX_REGISTRY = "0x9fe46736679d2d9a65f0992f2272de9f3c7fa6e0";

const newAccount = () => Keypair.generate().publicKey.toBase58();

/** Fresh Solana program ids unless given. */
export function offlineManifest(
  ids: { programId?: string; sandboxProgramId?: string } = {},
): DeploymentManifest {
  return {
    evm: [
      {
        chain: "hardhat",
        chainId: 31337,
        rpcUrl: "http://127.0.0.1:1",
        registry: OFFLINE_REGISTRY,
        priceFeed: "0xe7f1725e7734ce288f8367e1bb143e90bb3f0512",
        deployBlock: 1,
        sandbox: { registry: OFFLINE_SANDBOX_REGISTRY },
      },
    ],
    solana: [
      {
        chain: "solana",
        rpcUrl: "http://127.0.0.1:1",
        wsUrl: "ws://127.0.0.1:1",
        programId: ids.programId ?? newAccount(),
        priceAccount: newAccount(),
        configAccount: newAccount(),
        deploySlot: 1,
        sandbox: {
          programId: ids.sandboxProgramId ?? newAccount(),
          priceAccount: newAccount(),
          configAccount: newAccount(),
        },
      },
    ],
  };
}
