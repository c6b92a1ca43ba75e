// A launchpad's own Hardhat tests (or another local chain's): the identity registry with a local price feed and
// the reference guarded launchpad, deployed from the bytecode this package ships (./contracts, generated from the
// compiled contracts), with helpers to reserve a pair and trust a decision key. Local chains only: the price feed's
// owner sets any price.
import {
  type Account,
  type Address,
  type Chain,
  getAddress,
  type Hash,
  type Hex,
  type PublicClient,
  type Transport,
  toHex,
  type WalletClient,
  zeroAddress,
  zeroHash,
} from "viem";
import { DEFAULT_TIER_PRICES_USD_MICROS, type ReservationDuration } from "../../../core/reservation/policy";
import { SdkConfigError, SdkError } from "../errors";
import { guardedLaunchpadArtifact } from "./contracts/guardedLaunchpad";
import { identityRegistryArtifact } from "./contracts/identityRegistry";
import { localPriceFeedArtifact } from "./contracts/localPriceFeed";
import { type DecisionSignerWindow, yearFrom } from "./decisionSignerWindow";

/** A wallet client with its account and chain, as Hardhat's `hre.viem.getWalletClients()` hands them out. */
export type TestWallet = WalletClient<Transport, Chain, Account>;

/** The price feed's answer has 8 decimals, as Chainlink's USD feeds. */
const FEED_DECIMALS = 8;
const USD = 10n ** BigInt(FEED_DECIMALS);
const DEFAULT_ETH_PRICE_USD = 3_000;
const MAX_PRICE_AGE_SECONDS = 4_500;
/** One second: each transaction of a local chain is mined in a later block, so a reveal is never early. */
const MIN_COMMITMENT_AGE_SECONDS = 1;

export interface DeployIdentityRegistryOptions {
  /** The feed's ETH/USD price, whole USD (100 to 100,000). Default 3,000. */
  ethPriceUsd?: number;
}

/** A registry deployed for a test; the deployer owns it and its price feed. */
export interface TestIdentityRegistry {
  registry: Address;
  priceFeed: Address;
  /** Trusts `signer`'s launch decisions, by default from the latest block's time for a year. */
  setDecisionSigner(signer: Address, window?: DecisionSignerWindow): Promise<void>;
  /**
   * `launcher` reserves the pair for `durationSeconds` (default one day), as a creator does: a fresh price is
   * published, then commit, then the reveal (reserve) paying the quoted fee, in the next block.
   */
  reserve(
    launcher: TestWallet,
    name: string,
    ticker: string,
    durationSeconds?: ReservationDuration,
  ): Promise<void>;
}

/** Waits for `hash` and throws when it reverted. */
async function mined(publicClient: PublicClient, what: string, hash: Hash) {
  const receipt = await publicClient.waitForTransactionReceipt({ hash });
  if (receipt.status !== "success") throw new SdkError(`${what} reverted (transaction ${hash}).`);
  return receipt;
}

async function deployed(publicClient: PublicClient, what: string, hash: Hash): Promise<Address> {
  const { contractAddress } = await mined(publicClient, what, hash);
  if (!contractAddress) throw new SdkError(`${what} created no contract (transaction ${hash}).`);
  return getAddress(contractAddress);
}

function feedAnswer(priceUsd: number): bigint {
  if (!Number.isSafeInteger(priceUsd) || priceUsd < 100 || priceUsd > 100_000) {
    throw new SdkConfigError(`ethPriceUsd must be whole USD from 100 to 100,000, got ${priceUsd}.`);
  }
  return BigInt(priceUsd) * USD;
}

/**
 * Deploys a LocalPriceFeed and an IdentityRegistry reading it (1-second commitments, the default tier prices, no
 * sequencer feed), both owned by `deployer`.
 */
export async function deployIdentityRegistry(
  deployer: TestWallet,
  publicClient: PublicClient,
  options: DeployIdentityRegistryOptions = {},
): Promise<TestIdentityRegistry> {
  const answer = feedAnswer(options.ethPriceUsd ?? DEFAULT_ETH_PRICE_USD);
  const owner = deployer.account.address;
  const priceFeed = await deployed(
    publicClient,
    "LocalPriceFeed deployment",
    await deployer.deployContract({
      ...localPriceFeedArtifact,
      args: [owner, FEED_DECIMALS, "ETH / USD (test)", answer],
    }),
  );
  const settings = {
    owner,
    priceFeed,
    maxPriceAgeSeconds: MAX_PRICE_AGE_SECONDS,
    tierPricesUsdMicros: DEFAULT_TIER_PRICES_USD_MICROS,
    minAnswer: 100n * USD,
    maxAnswer: 100_000n * USD,
    sequencerUptimeFeed: zeroAddress,
    sequencerGracePeriodSeconds: 0,
    minCommitmentAgeSeconds: MIN_COMMITMENT_AGE_SECONDS,
  };
  const registry = await deployed(
    publicClient,
    "IdentityRegistry deployment",
    await deployer.deployContract({ ...identityRegistryArtifact, args: [settings] }),
  );
  const { abi } = identityRegistryArtifact;
  const read = { address: registry, abi } as const;

  return {
    registry,
    priceFeed,
    async setDecisionSigner(signer, window) {
      const { validFrom, validUntil } = window ?? yearFrom((await publicClient.getBlock()).timestamp);
      const hash = await deployer.writeContract({
        ...read,
        functionName: "setDecisionSigner",
        args: [signer, validFrom, validUntil],
      });
      await mined(publicClient, "setDecisionSigner", hash);
    },
    async reserve(launcher, name, ticker, durationSeconds = 86_400) {
      // The feed's price is dated by its block: publishing it again keeps it fresh whatever time a test moved.
      const refresh = await deployer.writeContract({
        address: priceFeed,
        abi: localPriceFeedArtifact.abi,
        functionName: "setAnswer",
        args: [answer],
      });
      await mined(publicClient, "LocalPriceFeed.setAnswer", refresh);
      const secret: Hex = toHex(crypto.getRandomValues(new Uint8Array(32)));
      const commitment = await publicClient.readContract({
        ...read,
        functionName: "makeCommitment",
        args: [name, ticker, launcher.account.address, durationSeconds, zeroHash, secret],
      });
      await mined(
        publicClient,
        "commit",
        await launcher.writeContract({ ...read, functionName: "commit", args: [commitment] }),
      );
      const value = await publicClient.readContract({
        ...read,
        functionName: "quote",
        args: [durationSeconds],
      });
      const reveal = await launcher.writeContract({
        ...read,
        functionName: "reserve",
        args: [name, ticker, durationSeconds, zeroHash, secret],
        value,
      });
      await mined(publicClient, "reserve", reveal);
    },
  };
}

/** Deploys the reference GuardedLaunchpad (contracts/examples) obeying `registry`; resolves with its address. */
export async function deployGuardedLaunchpad(
  deployer: TestWallet,
  publicClient: PublicClient,
  registry: Address,
): Promise<Address> {
  const hash = await deployer.deployContract({ ...guardedLaunchpadArtifact, args: [registry] });
  return deployed(publicClient, "GuardedLaunchpad deployment", hash);
}
