// Shared setup of the EVM registry tests: Hardhat's in-process network (compiled offline), a registry and
// local price feed deployed through the same library the localnet uses, typed contract handles and helpers.
import { loadFixture, time } from "@nomicfoundation/hardhat-toolbox-viem/network-helpers";
import { expect } from "chai";
import {
  type Account,
  type Address,
  BaseError,
  type Chain,
  ContractFunctionRevertedError,
  decodeErrorResult,
  getAddress,
  getContract,
  type Hash,
  type Hex,
  keccak256,
  type Transport,
  toHex,
  type WalletClient,
} from "viem";
import { LOCAL_FEED_DECIMALS } from "../../chains/evm/settings";
import { identityRegistryAbi } from "../../contracts/abi/identityRegistry";
import { localPriceFeedAbi } from "../../contracts/abi/localPriceFeed";
import { DEFAULT_TIER_PRICES_USD_MICROS } from "../../core/reservation";
import { type DeployRegistryOptions, deployWithClients } from "../../scripts/evm/deploy";
import { type InProcessNetwork, startInProcessNetwork } from "../../scripts/evm/hardhat-network";

export type Wallet = WalletClient<Transport, Chain, Account>;

export const DURATIONS = [86_400, 259_200, 604_800, 2_592_000] as const;
export const ONE_DAY = 86_400;
export const RENEWAL_WINDOW = 12 * 3600;
export const MAX_PRICE_AGE = 4_500;
/** ETH at 2,500 USD with the feed's 8 decimals. */
export const ETH_PRICE_ANSWER = 2_500n * 10n ** BigInt(LOCAL_FEED_DECIMALS);
export const PARTNER_REF: Hex = keccak256(toHex("partner:test-launchpad"));
/** The secret a test commitment hides unless a test picks its own. */
export const SECRET: Hex = keccak256(toHex("secret:test"));

let networkPromise: Promise<InProcessNetwork> | undefined;

/** One in-process network (and one compile) per mocha process, shared by all contract test files. */
export function inProcessNetwork(): Promise<InProcessNetwork> {
  networkPromise ??= startInProcessNetwork();
  return networkPromise;
}

async function deployRegistry() {
  const { publicClient, wallets } = await inProcessNetwork();
  const [owner, ...launchers] = wallets;
  if (!owner) throw new Error("Hardhat has no development accounts configured.");
  const deployment = await deployWithClients(
    { publicClient, walletClient: owner },
    { localPriceUsd: 2_500, maxPriceAgeSeconds: MAX_PRICE_AGE },
  );
  const registryAs = (wallet: Wallet) =>
    getContract({
      address: deployment.registry,
      abi: identityRegistryAbi,
      client: { public: publicClient, wallet },
    });
  const feed = getContract({
    address: deployment.priceFeed,
    abi: localPriceFeedAbi,
    client: { public: publicClient, wallet: owner },
  });
  return { ...deployment, publicClient, owner, launchers, registry: registryAs(owner), registryAs, feed };
}

export type RegistryFixture = Awaited<ReturnType<typeof deployRegistry>>;

/** A freshly deployed registry, restored from a chain snapshot after the first call. */
export function registryFixture(): Promise<RegistryFixture> {
  return loadFixture(deployRegistry);
}

/**
 * A second registry on the fixture's feed and chain, deployed with `options` (for the settings the default
 * fixture fixes, such as the commitment age or a sequencer feed); the helpers below work on it unchanged.
 */
export async function withRegistry(
  fixture: RegistryFixture,
  options: DeployRegistryOptions,
): Promise<RegistryFixture> {
  const deployment = await deployWithClients(
    { publicClient: fixture.publicClient, walletClient: fixture.owner },
    { priceFeed: fixture.priceFeed, maxPriceAgeSeconds: MAX_PRICE_AGE, ...options },
  );
  const registryAs = (wallet: Wallet) =>
    getContract({
      address: deployment.registry,
      abi: identityRegistryAbi,
      client: { public: fixture.publicClient, wallet },
    });
  return { ...fixture, ...deployment, registry: registryAs(fixture.owner), registryAs };
}

/** What a reveal sends; the defaults are the one-day tier, PARTNER_REF and SECRET. */
export interface Reveal {
  name: string;
  ticker: string;
  value: bigint;
  durationSeconds?: number;
  partnerRef?: Hex;
  secret?: Hex;
}

function revealArgs(reveal: Omit<Reveal, "value">) {
  return [
    reveal.name,
    reveal.ticker,
    reveal.durationSeconds ?? ONE_DAY,
    reveal.partnerRef ?? PARTNER_REF,
    reveal.secret ?? SECRET,
  ] as const;
}

/** The commitment `launcher` makes for a reveal, as the registry computes it. */
export function commitmentFor(
  fixture: RegistryFixture,
  launcher: Address,
  reveal: Omit<Reveal, "value">,
): Promise<Hex> {
  const [name, ticker, durationSeconds, partnerRef, secret] = revealArgs(reveal);
  return fixture.registry.read.makeCommitment([name, ticker, launcher, durationSeconds, partnerRef, secret]);
}

/** `wallet` commits to a reveal; resolves with the commitment and the timestamp of its block. */
export async function commitFor(
  fixture: RegistryFixture,
  wallet: Wallet,
  reveal: Omit<Reveal, "value">,
): Promise<{ commitment: Hex; committedAt: bigint }> {
  const commitment = await commitmentFor(fixture, wallet.account.address, reveal);
  const hash = await fixture.registryAs(wallet).write.commit([commitment]);
  const receipt = await fixture.publicClient.waitForTransactionReceipt({ hash });
  const block = await fixture.publicClient.getBlock({ blockNumber: receipt.blockNumber });
  return { commitment, committedAt: block.timestamp };
}

/** The reveal: `reserve` with the arguments the commitment hid. */
export function revealAs(fixture: RegistryFixture, wallet: Wallet, reveal: Reveal): Promise<Hash> {
  return fixture.registryAs(wallet).write.reserve([...revealArgs(reveal)], { value: reveal.value });
}

/**
 * The whole new-reservation flow: commit, let the commitment reach minCommitmentAge (the reveal's block is
 * pinned to exactly `at` when given, else to the first second the commitment matures), then reveal.
 */
export async function commitAndReserve(
  fixture: RegistryFixture,
  wallet: Wallet,
  reveal: Reveal & { at?: number | bigint },
): Promise<Hash> {
  const { committedAt } = await commitFor(fixture, wallet, reveal);
  const minAge = BigInt(await fixture.registry.read.minCommitmentAge());
  await nextBlockAt(reveal.at ?? committedAt + minAge);
  return revealAs(fixture, wallet, reveal);
}

/** Expected fee in wei for a tier at the test price, rounded up like the contract. */
export function expectedFeeWei(tierIndex: number, answer = ETH_PRICE_ANSWER): bigint {
  const usdMicros = DEFAULT_TIER_PRICES_USD_MICROS[tierIndex];
  if (usdMicros === undefined) throw new Error(`No tier ${tierIndex}`);
  const numerator = usdMicros * 10n ** BigInt(12 + LOCAL_FEED_DECIMALS);
  return (numerator + answer - 1n) / answer;
}

/**
 * Publishes a price dated `timestamp`, so it stays fresh until `timestamp + MAX_PRICE_AGE` whatever blocks
 * are mined before (a failed transaction also mines a block on Hardhat).
 */
export async function keepPriceFreshUntil(fixture: RegistryFixture, timestamp: number): Promise<void> {
  await fixture.feed.write.setRoundData([ETH_PRICE_ANSWER, BigInt(timestamp)]);
}

/** The next block (and so the next transaction) is mined at exactly `timestamp`. */
export async function nextBlockAt(timestamp: number | bigint): Promise<void> {
  await time.setNextBlockTimestamp(timestamp);
}

/** Advances the clock by `seconds` and publishes a fresh price. */
export async function advance(fixture: RegistryFixture, seconds: number): Promise<void> {
  await time.increase(seconds);
  await fixture.feed.write.setAnswer([ETH_PRICE_ANSWER]);
}

export async function latestTimestamp(): Promise<number> {
  return Number(await time.latest());
}

export interface DecodedRevert {
  name: string;
  /** Arguments of the custom error joined by ", " (addresses compared case-insensitively). */
  args: string;
}

const KNOWN_ERRORS_ABI = [...identityRegistryAbi, ...localPriceFeedAbi].filter(
  (item) => item.type === "error",
);

/**
 * The custom error a call reverted with. Hardhat surfaces it decoded, as text, or (when its tracer cannot
 * map the optimised code) only as raw return data, which is decoded here against the project's ABIs.
 */
export async function revertOf(call: Promise<unknown>): Promise<DecodedRevert> {
  try {
    await call;
  } catch (error) {
    if (error instanceof BaseError) {
      const reverted = error.walk((cause) => cause instanceof ContractFunctionRevertedError);
      if (reverted instanceof ContractFunctionRevertedError && reverted.data?.errorName) {
        return { name: reverted.data.errorName, args: joinArgs(reverted.data.args) };
      }
    }
    const text =
      error instanceof Error ? `${error.message} ${String((error as { details?: unknown }).details)}` : "";
    const named = /reverted with custom error '(\w+)\((.*?)\)'/.exec(text);
    if (named?.[1] !== undefined) return { name: named[1], args: (named[2] ?? "").replaceAll('"', "") };
    const raw = /return data: (0x[0-9a-fA-F]+)/.exec(text);
    if (raw?.[1] !== undefined) {
      const decoded = decodeErrorResult({ abi: KNOWN_ERRORS_ABI, data: raw[1] as Hex });
      return { name: decoded.errorName, args: joinArgs(decoded.args) };
    }
    throw new Error(`Expected a custom-error revert, got: ${text || String(error)}`);
  }
  throw new Error("Expected the call to revert, but it succeeded.");
}

function joinArgs(args: readonly unknown[] | undefined): string {
  return (args ?? []).map(String).join(", ");
}

export async function expectRevert(call: Promise<unknown>, name: string, args?: string): Promise<void> {
  const revert = await revertOf(call);
  expect(revert.name).to.equal(name);
  if (args !== undefined) expect(revert.args.toLowerCase()).to.equal(args.toLowerCase());
}

export function addressOf(wallet: Wallet | undefined): Address {
  if (!wallet) throw new Error("Not enough Hardhat development accounts for this test.");
  return getAddress(wallet.account.address);
}
