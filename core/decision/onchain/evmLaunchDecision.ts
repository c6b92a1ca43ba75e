// The EVM launch decision: the EIP-712 LaunchDecision the service's secp256k1 decision key signs for one launch
// through a launchpad inheriting IdentityGuard (contracts/guard/IdentityGuard.sol, docs/evm.md "EIP-712 types").
// The domain is the launchpad factory on one chain. Pure and browser-safe (viem's hashing only).
import { type Address, getAddress, type Hex, hashTypedData, isAddress, type TypedDataDefinition } from "viem";
import {
  type BytesInput,
  decisionValue,
  fixedBytes,
  LaunchDecisionFieldError,
  type LaunchDecisionValue,
  shown,
  toHex,
  type UnixSecondsInput,
  unixSeconds,
} from "./fields";

export const LAUNCH_DECISION_DOMAIN_NAME = "IdentityGuard";
export const LAUNCH_DECISION_DOMAIN_VERSION = "1";

/** The EIP-712 types of a LaunchDecision (the domain's EIP712Domain is implied by viem). */
export const LAUNCH_DECISION_TYPES = {
  LaunchDecision: [
    { name: "nameHash", type: "bytes32" },
    { name: "tickerHash", type: "bytes32" },
    { name: "launcher", type: "address" },
    { name: "token", type: "address" },
    { name: "decision", type: "uint8" },
    { name: "expiresAt", type: "uint64" },
    { name: "nonce", type: "bytes32" },
  ],
} as const;

/** The encoded type; its keccak256 is the guard's LAUNCH_DECISION_TYPEHASH. */
export const LAUNCH_DECISION_ENCODED_TYPE =
  "LaunchDecision(bytes32 nameHash,bytes32 tickerHash,address launcher,address token,uint8 decision,uint64 expiresAt,bytes32 nonce)";

export interface LaunchDecisionDomain {
  name: typeof LAUNCH_DECISION_DOMAIN_NAME;
  version: typeof LAUNCH_DECISION_DOMAIN_VERSION;
  chainId: number;
  /** The launchpad factory (the contract inheriting IdentityGuard). */
  verifyingContract: Address;
}

export interface EvmLaunchDecisionFields {
  /** The chain the launch happens on. */
  chainId: number | bigint;
  /** The launchpad factory: the EIP-712 verifyingContract. */
  factory: string;
  /** keccak256 of the folded name and ticker (core/fold foldedHash, the registry's identityHashes). */
  nameHash: BytesInput;
  tickerHash: BytesInput;
  launcher: string;
  /** The token's address, as the factory predicts it (CREATE2). */
  token: string;
  decision: LaunchDecisionValue;
  /** The launch must be mined before it: unix seconds (uint64) or a Date (truncated to its second). */
  expiresAt: UnixSecondsInput;
  /** 32 bytes: 0x hex or raw. */
  nonce: BytesInput;
}

export interface LaunchDecisionMessage {
  nameHash: Hex;
  tickerHash: Hex;
  launcher: Address;
  token: Address;
  decision: 0 | 1;
  expiresAt: bigint;
  nonce: Hex;
}

/** What viem's signTypedData and hashTypedData take. */
export interface LaunchDecisionTypedData {
  domain: LaunchDecisionDomain;
  types: typeof LAUNCH_DECISION_TYPES;
  primaryType: "LaunchDecision";
  message: LaunchDecisionMessage;
}

const UINT64 = { min: 0n, max: 2n ** 64n - 1n, type: "uint64" };

/** A 0x address; a mixed-case one must carry a valid EIP-55 checksum (a typo is refused, not signed). */
function address(field: string, value: unknown): Address {
  if (typeof value !== "string" || !isAddress(value)) {
    throw new LaunchDecisionFieldError(
      field,
      `must be a 0x address of 20 bytes (a mixed-case one with a valid checksum), got ${shown(value)}.`,
    );
  }
  return getAddress(value);
}

function chainIdOf(value: unknown): number {
  const id = typeof value === "bigint" && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value;
  if (typeof id !== "number" || !Number.isSafeInteger(id) || id <= 0) {
    throw new LaunchDecisionFieldError("chainId", `must be a positive safe integer, got ${shown(value)}.`);
  }
  return id;
}

/** The EIP-712 domain of the decisions for `factory` on chain `chainId`. */
export function launchDecisionDomain(chainId: number | bigint, factory: string): LaunchDecisionDomain {
  return {
    name: LAUNCH_DECISION_DOMAIN_NAME,
    version: LAUNCH_DECISION_DOMAIN_VERSION,
    chainId: chainIdOf(chainId),
    verifyingContract: address("factory", factory),
  };
}

/**
 * The typed data of one decision, for viem's `account.signTypedData(...)`. Every field is checked first: a wrong
 * type, length, form or range throws LaunchDecisionFieldError (a TypeError) naming the field.
 */
export function launchDecisionTypedData(fields: EvmLaunchDecisionFields): LaunchDecisionTypedData {
  const typedData = {
    domain: launchDecisionDomain(fields.chainId, fields.factory),
    types: LAUNCH_DECISION_TYPES,
    primaryType: "LaunchDecision",
    message: {
      nameHash: toHex(fixedBytes("nameHash", fields.nameHash, 32)),
      tickerHash: toHex(fixedBytes("tickerHash", fields.tickerHash, 32)),
      launcher: address("launcher", fields.launcher),
      token: address("token", fields.token),
      decision: decisionValue(fields.decision),
      expiresAt: unixSeconds("expiresAt", fields.expiresAt, UINT64),
      nonce: toHex(fixedBytes("nonce", fields.nonce, 32)),
    },
  } as const satisfies TypedDataDefinition<typeof LAUNCH_DECISION_TYPES, "LaunchDecision">;
  return typedData;
}

/** The EIP-712 digest of one decision: what the guard's launchDecisionDigest(...) answers on-chain. */
export function launchDecisionDigest(fields: EvmLaunchDecisionFields): Hex {
  return hashTypedData(launchDecisionTypedData(fields));
}
