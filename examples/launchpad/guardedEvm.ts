// EVM: a guarded launch on the local Hardhat chain through the SDK's on-chain guard helpers. The reference
// GuardedLaunchpad (a CREATE2 ERC-20 factory inheriting IdentityGuard) is deployed obeying the sandbox registry;
// a fresh pair launches (predictGuardedToken, validate with `onchain`, guardedLaunchArgs, `launch`); the copycat's
// pair gets a block, which the SDK refuses to turn into a launch, and which the factory itself reverts when sent
// anyway.
import { randomBytes } from "node:crypto";
import type { OnchainDecisionRefusal, ServiceClient } from "@identity-protection/sdk";
import {
  GUARDED_LAUNCH_ABI,
  guardedLaunchArgs,
  predictGuardedToken,
} from "@identity-protection/sdk/onchain-guard/evm";
import { deployGuardedLaunchpad, guardedLaunchpadArtifact } from "@identity-protection/sdk/testing";
import {
  type Address,
  BaseError,
  ContractFunctionRevertedError,
  createPublicClient,
  createWalletClient,
  defineChain,
  type Hash,
  type Hex,
  http,
  type PublicClient,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import type { LocalEvmChain } from "./localChains";
import { type Pair, sdkRefusal, validateOnchain } from "./onchainValidate";

/**
 * Hardhat's development account #1 (the demo's launcher): a PUBLIC key that every Hardhat node funds. Local chains
 * only; never send anything of value to it.
 */
const LOCAL_ONLY_HARDHAT_DEV_KEY: Hex = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d";
/** A local chain mines each transaction at once: poll its receipts often. */
const LOCAL_POLLING_MS = 100;

export interface GuardedEvmOptions {
  /** A client with the sandbox key. */
  service: ServiceClient;
  launchpadId: string;
  chain: LocalEvmChain;
  /** A free pair, and one the sandbox holds for another wallet. */
  pairs: { fresh: Pair; held: Pair };
  log: (message: string) => void;
}

export interface GuardedEvmResult {
  factory: Address;
  launched: Pair & { token: Address; transaction: Hash };
  copycat: Pair & { token: Address; decision: string; refusal: OnchainDecisionRefusal; revert: string };
}

function localClients(chain: LocalEvmChain) {
  const viemChain = defineChain({
    id: chain.chainId,
    name: chain.chain,
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [chain.rpcUrl] } },
  });
  const transport = http(chain.rpcUrl);
  const publicClient: PublicClient = createPublicClient({
    chain: viemChain,
    transport,
    pollingInterval: LOCAL_POLLING_MS,
  });
  const account = privateKeyToAccount(LOCAL_ONLY_HARDHAT_DEV_KEY);
  const wallet = createWalletClient({ account, chain: viemChain, transport });
  return { publicClient, wallet };
}

type Clients = ReturnType<typeof localClients>;

interface Context {
  options: GuardedEvmOptions;
  clients: Clients;
  factory: Address;
}

/** A launch of `pair` by the dev account: the token the factory predicts for it, and validate's answer for it. */
async function validatedLaunch({ options, clients, factory }: Context, { name, ticker }: Pair) {
  const salt = `0x${randomBytes(32).toString("hex")}` as Hex;
  const launcher = clients.wallet.account.address;
  const token = await predictGuardedToken(clients.publicClient, { factory, name, ticker, launcher, salt });
  const launch = { name, ticker, salt, launcher, factory, chainId: options.chain.chainId, token };
  const answer = await validateOnchain(options.service, "evm", {
    chain: options.chain.chain,
    name,
    ticker,
    launcher,
    launchpadId: options.launchpadId,
    onchain: { launchpad: factory, token },
  });
  return { launch, answer };
}

/** The holder's launch: sent with the arguments the SDK builds from the allow. */
async function launchFreshPair(context: Context): Promise<GuardedEvmResult["launched"]> {
  const { publicClient, wallet } = context.clients;
  const { launch, answer } = await validatedLaunch(context, context.options.pairs.fresh);
  const transaction = await wallet.writeContract({
    address: context.factory,
    abi: GUARDED_LAUNCH_ABI,
    functionName: "launch",
    args: guardedLaunchArgs(answer.onchain, launch),
  });
  const receipt = await publicClient.waitForTransactionReceipt({ hash: transaction });
  if (receipt.status !== "success") {
    throw new Error(`The guarded launch of ${launch.name} reverted (transaction ${transaction}).`);
  }
  return { name: launch.name, ticker: launch.ticker, token: launch.token, transaction };
}

/** The error the factory reverts `send` with (decoded by its ABI); throws if it did not revert. */
async function revertName(send: () => Promise<unknown>): Promise<string> {
  try {
    await send();
  } catch (error) {
    const reverted =
      error instanceof BaseError
        ? error.walk((cause) => cause instanceof ContractFunctionRevertedError)
        : null;
    const name = reverted instanceof ContractFunctionRevertedError ? reverted.data?.errorName : undefined;
    if (name !== undefined) return name;
    throw error;
  }
  throw new Error("The factory accepted a launch signed as block: the guard is broken, do not use it.");
}

/**
 * The copycat's launch: validate answers block and the SDK refuses to build it; sent anyway with the answer's own
 * signature, the factory's guard reverts it (the chain runs it while estimating its gas: nothing is mined).
 */
async function tryCopycat(context: Context): Promise<GuardedEvmResult["copycat"]> {
  const { launch, answer } = await validatedLaunch(context, context.options.pairs.held);
  const { onchain } = answer;
  const refusal = sdkRefusal(() => guardedLaunchArgs(onchain, launch));
  const revert = await revertName(() =>
    context.clients.wallet.writeContract({
      address: context.factory,
      // The factory's full ABI: its custom errors name the revert.
      abi: guardedLaunchpadArtifact.abi,
      functionName: "launch",
      args: [
        launch.name,
        launch.ticker,
        launch.salt,
        BigInt(onchain.expiresAt),
        onchain.nonce,
        onchain.signature,
      ],
    }),
  );
  const { name, ticker, token } = launch;
  return { name, ticker, token, decision: answer.decision, refusal, revert };
}

export async function runGuardedEvmLaunch(options: GuardedEvmOptions): Promise<GuardedEvmResult> {
  const clients = localClients(options.chain);
  const factory = await deployGuardedLaunchpad(
    clients.wallet,
    clients.publicClient,
    options.chain.sandboxRegistry,
  );
  options.log(
    `EVM: GuardedLaunchpad ${factory} deployed on ${options.chain.chain}, obeying the sandbox registry`,
  );
  const context = { options, clients, factory };
  return {
    factory,
    launched: await launchFreshPair(context),
    copycat: await tryCopycat(context),
  };
}
