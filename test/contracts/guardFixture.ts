// Shared setup of the identity guard tests: the registry fixture with a live reservation of RESERVED held by
// `holder`, the service's EVM decision key trusted by the registry, and the example GuardedLaunchpad on top.
// Decisions are signed the way the service signs them: EIP-712 through viem's signTypedData over core's typed data
// (core/decision/onchain), with the pair's keys computed off-chain by core/fold.
import { loadFixture } from "@nomicfoundation/hardhat-toolbox-viem/network-helpers";
import { expect } from "chai";
import {
  type Address,
  BaseError,
  ContractFunctionRevertedError,
  decodeErrorResult,
  getAddress,
  getContract,
  type Hex,
  keccak256,
  type PrivateKeyAccount,
  toHex,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { identityRegistryAbi } from "../../contracts/abi/identityRegistry";
import { guardedLaunchpadAbi } from "../../contracts/test/abi/guardedLaunchpad";
import { launchTokenAbi } from "../../contracts/test/abi/launchToken";
import { revertingIdentityRegistryAbi } from "../../contracts/test/abi/revertingIdentityRegistry";
import { launchDecisionTypedData } from "../../core/decision/onchain";
import { foldedHash, foldV1 } from "../../core/fold";
import { readArtifact } from "../../scripts/evm/artifacts";
import {
  addressOf,
  commitAndReserve,
  expectedFeeWei,
  latestTimestamp,
  type RegistryFixture,
  registryFixture,
  type Wallet,
} from "./fixture";

/** The decision key trusted in the fixture, and the one a rotation moves to. */
export const DECISION_KEY = privateKeyToAccount(keccak256(toHex("decision-key:current")));
export const NEXT_DECISION_KEY = privateKeyToAccount(keccak256(toHex("decision-key:next")));

export interface Pair {
  name: string;
  ticker: string;
}
/** Reserved by `holder` in the fixture. */
export const RESERVED: Pair = { name: "Moon Dog", ticker: "MOON" };
/** Never reserved. */
export const FREE: Pair = { name: "Sun Cat", ticker: "SUNC" };
/** How long a test decision stays valid unless a test says otherwise. */
export const DECISION_TTL = 600n;

export type Launchpad = ReturnType<typeof launchpadAt>;

function launchpadAt(fixture: RegistryFixture, address: Address, wallet: Wallet) {
  return getContract({
    address,
    abi: guardedLaunchpadAbi,
    client: { public: fixture.publicClient, wallet },
  });
}

/** Deploys a GuardedLaunchpad obeying `registry` (by default the fixture's). */
export async function deployLaunchpad(fixture: RegistryFixture, registry?: Address): Promise<Address> {
  const hash = await fixture.owner.deployContract({
    abi: guardedLaunchpadAbi,
    bytecode: readArtifact("GuardedLaunchpad").bytecode,
    args: [registry ?? fixture.registry.address],
  });
  const receipt = await fixture.publicClient.waitForTransactionReceipt({ hash });
  if (!receipt.contractAddress) throw new Error("GuardedLaunchpad deployment failed");
  return getAddress(receipt.contractAddress);
}

async function deployGuard() {
  const fixture = await registryFixture();
  const [holder, copycat, other] = fixture.launchers;
  if (!holder || !copycat || !other) throw new Error("The guard tests need three Hardhat launchers.");
  const now = BigInt(await latestTimestamp());
  await fixture.registry.write.setDecisionSigner([DECISION_KEY.address, now - 3_600n, now + 365n * 86_400n]);
  await commitAndReserve(fixture, holder, { ...RESERVED, value: expectedFeeWei(0) });
  const { nameHash, tickerHash } = pairHashes(RESERVED);
  const [, reservedUntil] = await fixture.registry.read.reservationOf([nameHash, tickerHash]);
  const address = await deployLaunchpad(fixture);
  const chainId = await fixture.publicClient.getChainId();
  return {
    ...fixture,
    holder,
    copycat,
    other,
    reservedUntil,
    chainId,
    launchpad: launchpadAt(fixture, address, fixture.owner),
    /** The launchpad at `at` (default: the fixture's), sending from `wallet`. */
    launchpadAs: (wallet: Wallet, at: Address = address) => launchpadAt(fixture, at, wallet),
  };
}

export type GuardFixture = Awaited<ReturnType<typeof deployGuard>>;

/** The registry with RESERVED held by `holder`, the decision key trusted and a GuardedLaunchpad deployed. */
export function guardFixture(): Promise<GuardFixture> {
  return loadFixture(deployGuard);
}

/** The registry's keys of a pair, computed off-chain as the service does: keccak256 of the folded strings. */
export function pairHashes(pair: Pair): { nameHash: Hex; tickerHash: Hex } {
  return { nameHash: foldedHash(foldV1(pair.name)), tickerHash: foldedHash(foldV1(pair.ticker)) };
}

export interface DecisionFields {
  nameHash: Hex;
  tickerHash: Hex;
  launcher: Address;
  token: Address;
  decision: "allow" | "block";
  expiresAt: bigint;
  nonce: Hex;
}

export interface DecisionDomain {
  chainId: number;
  verifyingContract: Address;
}

/** The typed data of a LaunchDecision for `domain`, built by core's encoder (core/decision/onchain). */
export function decisionTypedData(fields: DecisionFields, domain: DecisionDomain) {
  return launchDecisionTypedData({ ...fields, chainId: domain.chainId, factory: domain.verifyingContract });
}

/** The service's signature over a LaunchDecision: viem's signTypedData with a secp256k1 key. */
export function signDecision(
  fields: DecisionFields,
  domain: DecisionDomain,
  key: PrivateKeyAccount = DECISION_KEY,
): Promise<Hex> {
  return key.signTypedData(decisionTypedData(fields, domain));
}

let nonceCounter = 0;
/** A fresh 32-byte nonce, as the service draws one per decision. */
export function freshNonce(): Hex {
  nonceCounter += 1;
  return keccak256(toHex(`nonce:${nonceCounter}`));
}

export function saltOf(label: string): Hex {
  return keccak256(toHex(`salt:${label}`));
}

/** Everything `launch` takes after name and ticker, and the decision's fields. */
export interface SignedLaunch {
  pair: Pair;
  salt: Hex;
  token: Address;
  expiresAt: bigint;
  nonce: Hex;
  signature: Hex;
  fields: DecisionFields;
}

export interface DecisionOverrides extends Partial<DecisionFields> {
  /** Signs for these facts instead of the launch's own (the launch still sends its own). */
  signedPair?: Pair;
  salt?: Hex;
  chainId?: number;
  verifyingContract?: Address;
  key?: PrivateKeyAccount;
  /** The launchpad the launch goes to (default: the fixture's); it predicts the token. */
  launchpad?: Launchpad;
}

/**
 * A launch of `pair` by `wallet` with the service's decision for it: by default an allow for exactly this
 * launcher, pair and predicted token on the fixture's chain and launchpad, valid DECISION_TTL seconds.
 */
export async function decisionFor(
  fixture: GuardFixture,
  wallet: Wallet,
  pair: Pair,
  overrides: DecisionOverrides = {},
): Promise<SignedLaunch> {
  const launchpad = overrides.launchpad ?? fixture.launchpad;
  const launcher = addressOf(wallet);
  const salt = overrides.salt ?? saltOf(`${pair.name}/${pair.ticker}/${launcher}`);
  const token = await launchpad.read.predictToken([pair.name, pair.ticker, launcher, salt]);
  const fields: DecisionFields = {
    ...pairHashes(overrides.signedPair ?? pair),
    launcher,
    token,
    decision: "allow",
    expiresAt: BigInt(await latestTimestamp()) + DECISION_TTL,
    nonce: freshNonce(),
    ...overrides,
  };
  const signature = await signDecision(
    fields,
    {
      chainId: overrides.chainId ?? fixture.chainId,
      verifyingContract: overrides.verifyingContract ?? launchpad.address,
    },
    overrides.key,
  );
  return { pair, salt, token, expiresAt: fields.expiresAt, nonce: fields.nonce, signature, fields };
}

/** `launch` of a signed launch from `wallet` (the launcher is always msg.sender). */
export function launchWith(
  fixture: GuardFixture,
  wallet: Wallet,
  signed: SignedLaunch,
  options: { signature?: Hex; launchpad?: Address } = {},
) {
  return fixture
    .launchpadAs(wallet, options.launchpad)
    .write.launch([
      signed.pair.name,
      signed.pair.ticker,
      signed.salt,
      signed.expiresAt,
      signed.nonce,
      options.signature ?? signed.signature,
    ]);
}

export function tokenAt(fixture: GuardFixture, address: Address) {
  return getContract({ address, abi: launchTokenAbi, client: { public: fixture.publicClient } });
}

/** Every custom error a guarded launch can surface: the launchpad's, the registry's, the stub registry's. */
const GUARD_ERRORS_ABI = [
  ...guardedLaunchpadAbi,
  ...identityRegistryAbi,
  ...revertingIdentityRegistryAbi,
  ...launchTokenAbi,
].filter((item) => item.type === "error");

export interface GuardRevert {
  /** The custom error's name, or "" for a revert without data. */
  name: string;
  args: readonly unknown[];
  data: Hex;
}

/** How a guarded call reverted, decoded against GUARD_ERRORS_ABI from the raw revert data. */
export async function guardRevertOf(call: Promise<unknown>): Promise<GuardRevert> {
  try {
    await call;
  } catch (error) {
    const data = revertData(error);
    if (data === undefined) throw new Error(`Expected a revert, got: ${String(error)}`);
    if (data === "0x") return { name: "", args: [], data };
    const decoded = decodeErrorResult({ abi: GUARD_ERRORS_ABI, data });
    return { name: decoded.errorName, args: decoded.args ?? [], data };
  }
  throw new Error("Expected the call to revert, but it succeeded.");
}

/** Asserts a revert with custom error `name` (and, when given, exactly these arguments). */
export async function expectGuardRevert(
  call: Promise<unknown>,
  name: string,
  args?: readonly unknown[],
): Promise<GuardRevert> {
  const revert = await guardRevertOf(call);
  expect(revert.name, `reverted ${revert.name}(${revert.args.map(String).join(", ")})`).to.equal(name);
  if (args !== undefined) expect(normalise(revert.args)).to.deep.equal(normalise(args));
  return revert;
}

function normalise(args: readonly unknown[]): unknown[] {
  return args.map((arg) => (typeof arg === "string" ? arg.toLowerCase() : arg));
}

/** The raw revert data of a failed call or transaction, wherever viem or Hardhat put it. */
function revertData(error: unknown): Hex | undefined {
  if (error instanceof BaseError) {
    const reverted = error.walk((cause) => cause instanceof ContractFunctionRevertedError);
    if (reverted instanceof ContractFunctionRevertedError && reverted.raw !== undefined) return reverted.raw;
    const withData = error.walk(
      (cause) =>
        typeof (cause as { data?: unknown }).data === "string" && isHex((cause as { data: string }).data),
    ) as { data?: string } | null;
    if (withData?.data !== undefined) return withData.data as Hex;
  }
  const text = error instanceof Error ? error.message : "";
  const raw = /return data: (0x[0-9a-fA-F]*)/.exec(text);
  if (raw?.[1] !== undefined) return raw[1] as Hex;
  return undefined;
}

function isHex(value: string): boolean {
  return /^0x[0-9a-fA-F]*$/.test(value);
}
