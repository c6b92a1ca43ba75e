// viem clients for any EVM JSON-RPC endpoint, with the chain id read from the node itself.
import {
  type Account,
  type Chain,
  createPublicClient,
  createWalletClient,
  defineChain,
  type Hex,
  http,
  type PublicClient,
  type Transport,
  type WalletClient,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";

export interface EvmClients {
  publicClient: PublicClient<Transport, Chain>;
  walletClient: WalletClient<Transport, Chain, Account>;
}

export function readChainId(rpcUrl: string): Promise<number> {
  return createPublicClient({ transport: http(rpcUrl) }).getChainId();
}

export async function connectEvm(rpcUrl: string, privateKey: Hex): Promise<EvmClients> {
  const transport = http(rpcUrl);
  const chainId = await readChainId(rpcUrl);
  const chain = defineChain({
    id: chainId,
    name: `evm-${chainId}`,
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
  return {
    publicClient: createPublicClient({ chain, transport }),
    walletClient: createWalletClient({ account: privateKeyToAccount(privateKey), chain, transport }),
  };
}
