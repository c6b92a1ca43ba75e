// When two on-chain values name the same thing: EVM hex (addresses, transaction hashes) compares without case,
// Solana base58 (public keys, signatures) exactly, and a value of one family never equals one of the other.
// TypeScript compares with these functions and SQL with sameOnChainSql, so the rule has one home.
import type { ChainFamily } from "../status/sandboxScenarios";

const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** The form a value of `family` compares (and is stored) in: EVM hex lower-cased, Solana base58 as it is. */
export function onChainKey(family: ChainFamily, value: string): string {
  return family === "evm" ? value.toLowerCase() : value;
}

/** Whether `a` and `b` are the same address, key, hash or signature on a chain of `family`. */
export function sameOnChain(family: ChainFamily, a: string, b: string): boolean {
  return onChainKey(family, a) === onChainKey(family, b);
}

/**
 * The key of an address whose chain is not at hand, by its shape: a `0x` + 40-hex address is EVM's, anything else
 * (a Solana base58 key has no `0`, so never looks like one) stays exact.
 */
export function addressKey(address: string): string {
  return EVM_ADDRESS.test(address) ? address.toLowerCase() : address;
}

/** Whether two addresses whose chain is not at hand are the same wallet (see addressKey). */
export function sameAddress(a: string, b: string): boolean {
  return addressKey(a) === addressKey(b);
}

/**
 * SQL for sameOnChain over three SQL expressions: `family` yields 'evm' or 'solana', `a` and `b` the values.
 * For values that may have been stored in any case (a mirror row, a submitted hash).
 */
export function sameOnChainSql(family: string, a: string, b: string): string {
  return `(CASE WHEN ${family} = 'evm' THEN lower(${a}) = lower(${b}) ELSE ${a} = ${b} END)`;
}
