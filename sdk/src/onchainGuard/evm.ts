// EVM: what a launcher sends to a factory inheriting IdentityGuard (contracts/examples/GuardedLaunchpad.sol or any
// factory with its `launch` and `predictToken`), from the `onchain` of POST /v1/launches/validate. The signature is
// judged on-chain (the guard recovers it against the registry's decision signers); these helpers refuse, before a
// fee is paid, what the guard would refuse anyway or what is not the launch the caller is about to send.
import {
  type Address,
  getAddress,
  type Hex,
  isAddress,
  isHex,
  type PublicClient,
  parseAbi,
  size,
} from "viem";
import type { EvmOnchainDecision } from "../../../core/decision/onchain/answer";
import { launchDecisionTypedData } from "../../../core/decision/onchain/evmLaunchDecision";
import { LaunchDecisionFieldError } from "../../../core/decision/onchain/fields";
import { SdkConfigError } from "../errors";
import {
  type CallerClock,
  malformed,
  requireKind,
  requireLiveAllow,
  requirePair,
  requireSame,
} from "./decisionChecks";

/** The two functions of a guarded factory these helpers use (the shape of GuardedLaunchpad's). */
export const GUARDED_LAUNCH_ABI = parseAbi([
  "function launch(string name, string ticker, bytes32 salt, uint64 expiresAt, bytes32 nonce, bytes signature) returns (address token)",
  "function predictToken(string name, string ticker, address launcher, bytes32 salt) view returns (address)",
]);

/** The launch about to be sent: every field is compared with the decision's. */
export interface EvmGuardedLaunch {
  name: string;
  ticker: string;
  /** Your bytes32 salt of the token's CREATE2 address. */
  salt: Hex;
  /** The wallet that sends `launch` (the factory's msg.sender). */
  launcher: string;
  /** The factory the transaction goes to. */
  factory: string;
  /** The chain it is sent on. */
  chainId: number;
  /** The token the factory predicts for this launch (predictGuardedToken). */
  token: string;
}

export interface GuardedLaunchOptions {
  /** The clock the expiry is judged by (epoch ms or a Date); defaults to the current time. */
  now?: CallerClock;
}

/** `launch(name, ticker, salt, expiresAt, nonce, signature)`'s arguments, for viem's writeContract. */
export type GuardedLaunchArgs = readonly [
  name: string,
  ticker: string,
  salt: Hex,
  expiresAt: bigint,
  nonce: Hex,
  signature: Hex,
];

const SIGNATURE_BYTES = 65;

/** A caller's address, checksummed; a malformed one is the caller's bug. */
function sentAddress(field: string, value: string): Address {
  if (!isAddress(value))
    throw new SdkConfigError(`${field} must be a 0x address, got ${JSON.stringify(value)}.`);
  return getAddress(value);
}

/** The decision's typed data, which checks every signed field's form. */
function wellFormedTypedData(onchain: EvmOnchainDecision) {
  if (!isHex(onchain.signature) || size(onchain.signature) !== SIGNATURE_BYTES) {
    throw malformed("The decision's signature is not 65 bytes of 0x hex.");
  }
  try {
    return launchDecisionTypedData(onchain);
  } catch (error) {
    if (!(error instanceof LaunchDecisionFieldError)) throw error;
    throw malformed(error.message);
  }
}

/**
 * The arguments of `launch` on a guarded factory for `launch`, from the validate answer's `onchain`. Throws
 * OnchainDecisionError (nothing to send) unless it is a live allow for exactly this chain, factory, launcher, token
 * and pair; SdkConfigError for a malformed `launch`.
 */
export function guardedLaunchArgs(
  onchain: EvmOnchainDecision,
  launch: EvmGuardedLaunch,
  options: GuardedLaunchOptions = {},
): GuardedLaunchArgs {
  requireKind(onchain, "evm");
  const { domain, message } = wellFormedTypedData(onchain);
  if (!isHex(launch.salt) || size(launch.salt) !== 32) {
    throw new SdkConfigError(`salt must be 32 bytes of 0x hex, got ${JSON.stringify(launch.salt)}.`);
  }
  requireLiveAllow(onchain, options.now);
  requireSame("chain_mismatch", "chain id", domain.chainId, launch.chainId);
  requireSame(
    "launchpad_mismatch",
    "factory",
    domain.verifyingContract,
    sentAddress("factory", launch.factory),
  );
  requireSame("launcher_mismatch", "launcher", message.launcher, sentAddress("launcher", launch.launcher));
  requireSame("token_mismatch", "token", message.token, sentAddress("token", launch.token));
  requirePair(onchain, launch.name, launch.ticker);
  return [launch.name, launch.ticker, launch.salt, message.expiresAt, message.nonce, onchain.signature];
}

/** What predictToken takes: the token's address follows from them and the factory. */
export interface GuardedTokenParams {
  factory: string;
  name: string;
  ticker: string;
  launcher: string;
  salt: Hex;
}

/**
 * The address `factory` deploys `launcher`'s token at, as its predictToken view answers: the `token` of the
 * validate request and of guardedLaunchArgs. Read on-chain because the address hashes the token's creation code,
 * which is the factory's own.
 */
export function predictGuardedToken(
  client: Pick<PublicClient, "readContract">,
  params: GuardedTokenParams,
): Promise<Address> {
  return client.readContract({
    address: sentAddress("factory", params.factory),
    abi: GUARDED_LAUNCH_ABI,
    functionName: "predictToken",
    args: [params.name, params.ticker, sentAddress("launcher", params.launcher), params.salt],
  });
}
