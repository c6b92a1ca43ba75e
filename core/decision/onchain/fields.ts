// The field forms both on-chain launch decisions accept, checked and turned into bytes: 0x hex, Solana base58,
// raw bytes, unix seconds. Pure and browser-safe (no Buffer, no Node module): a bad field is a TypeError that names
// it, never a silently different decision.

/** Thrown for a launch decision field that cannot be encoded (wrong type, length, form or range). */
export class LaunchDecisionFieldError extends TypeError {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(`Launch decision field "${field}" ${message}`);
    this.name = new.target.name;
  }
}

/** What each chain's decision byte (Solana) or uint8 (EVM) holds. */
export const LAUNCH_DECISION_VALUES = { allow: 1, block: 0 } as const;
export type LaunchDecisionValue = keyof typeof LAUNCH_DECISION_VALUES;

/** 0x-prefixed hex. */
export type HexString = `0x${string}`;
/** Bytes as 0x hex (any case) or raw. */
export type BytesInput = HexString | Uint8Array;
/** Unix seconds (an integer number or a bigint), or a Date (truncated to its whole second, never later). */
export type UnixSecondsInput = Date | number | bigint;

const SHOWN_CHARACTERS = 48;

/** A value for an error message: strings quoted and cut short, so a huge input never floods a log. */
export function shown(value: unknown): string {
  if (typeof value === "string") {
    const cut = value.length > SHOWN_CHARACTERS ? `${value.slice(0, SHOWN_CHARACTERS)}…` : value;
    return `${JSON.stringify(cut)} (${value.length} characters)`;
  }
  if (value instanceof Uint8Array) return `${value.length} bytes`;
  if (typeof value === "bigint") return `${value}n`;
  if (value instanceof Date) return `Date(${value.getTime()})`;
  if (value === null) return "null";
  return typeof value === "object" ? "an object" : `${typeof value} ${String(value)}`;
}

const HEX_DIGITS = /^[0-9a-fA-F]*$/;

/** Exactly `length` bytes from 0x hex or raw bytes; a copy, so a later change of the input cannot reach it. */
export function fixedBytes(field: string, value: unknown, length: number): Uint8Array {
  if (value instanceof Uint8Array) {
    if (value.length !== length)
      throw new LaunchDecisionFieldError(field, `must be ${length} bytes, got ${value.length}.`);
    return Uint8Array.from(value);
  }
  if (typeof value === "string" && value.startsWith("0x")) {
    const digits = value.slice(2);
    if (digits.length !== length * 2 || !HEX_DIGITS.test(digits)) {
      throw new LaunchDecisionFieldError(
        field,
        `must be ${length} bytes: 0x and ${length * 2} hex digits, got ${shown(value)}.`,
      );
    }
    const bytes = new Uint8Array(length);
    for (let index = 0; index < length; index++) {
      bytes[index] = Number.parseInt(digits.slice(index * 2, index * 2 + 2), 16);
    }
    return bytes;
  }
  throw new LaunchDecisionFieldError(
    field,
    `must be ${length} bytes as 0x hex or a Uint8Array, got ${shown(value)}.`,
  );
}

/** Lowercase 0x hex of `bytes`. */
export function toHex(bytes: Uint8Array): HexString {
  let hex = "0x";
  for (const byte of bytes) hex += byte.toString(16).padStart(2, "0");
  return hex as HexString;
}

const BASE58_ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
const BASE58_DIGIT = new Map([...BASE58_ALPHABET].map((character, digit) => [character, digit]));
/** The longest base58 text of 32 bytes (2^256 - 1 needs 44 digits). */
const BASE58_32_MAX_LENGTH = 44;

/** The bytes of a base58 text (Bitcoin alphabet, each leading "1" one zero byte), or null if it is not base58. */
export function decodeBase58(text: string): Uint8Array | null {
  let zeros = 0;
  while (zeros < text.length && text[zeros] === "1") zeros++;
  const value: number[] = []; // little-endian base-256 digits of the number after the leading "1"s
  for (const character of text) {
    const digit = BASE58_DIGIT.get(character);
    if (digit === undefined) return null;
    let carry = digit;
    for (let index = 0; index < value.length; index++) {
      carry += (value[index] as number) * 58;
      value[index] = carry & 0xff;
      carry >>= 8;
    }
    while (carry > 0) {
      value.push(carry & 0xff);
      carry >>= 8;
    }
  }
  const bytes = new Uint8Array(zeros + value.length);
  for (let index = 0; index < value.length; index++) {
    bytes[zeros + index] = value[value.length - 1 - index] as number;
  }
  return bytes;
}

/** A Solana public key or hash: base58 text, 32 raw bytes, or a key object with toBytes() (web3.js PublicKey). */
export type SolanaKeyInput = string | Uint8Array | { toBytes(): Uint8Array };

/** The 32 bytes of a Solana key given in any SolanaKeyInput form. */
export function solanaKey(field: string, value: unknown): Uint8Array {
  if (typeof value === "string") {
    const bytes = value.length <= BASE58_32_MAX_LENGTH ? decodeBase58(value) : null;
    if (bytes === null || bytes.length !== 32) {
      throw new LaunchDecisionFieldError(
        field,
        `must be a base58 Solana key of 32 bytes, got ${shown(value)}${bytes === null ? "" : ` (${bytes.length} bytes)`}.`,
      );
    }
    return bytes;
  }
  if (value instanceof Uint8Array) return fixedBytes(field, value, 32);
  if (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { toBytes?: unknown }).toBytes === "function"
  ) {
    const bytes: unknown = (value as { toBytes(): unknown }).toBytes();
    if (bytes instanceof Uint8Array) return fixedBytes(field, bytes, 32);
  }
  throw new LaunchDecisionFieldError(
    field,
    `must be a Solana key: base58 text, 32 bytes or a PublicKey, got ${shown(value)}.`,
  );
}

/** The decision's value (1 allow, 0 block); anything but "allow" or "block" is refused, never read as block. */
export function decisionValue(value: unknown): 0 | 1 {
  if (value === "allow" || value === "block") return LAUNCH_DECISION_VALUES[value];
  throw new LaunchDecisionFieldError("decision", `must be "allow" or "block", got ${shown(value)}.`);
}

/** Whole unix seconds in [min, max] from a Date (truncated), an integer number or a bigint. */
export function unixSeconds(
  field: string,
  value: unknown,
  range: { min: bigint; max: bigint; type: string },
): bigint {
  let seconds: bigint;
  if (value instanceof Date) {
    const millis = value.getTime();
    if (!Number.isFinite(millis)) throw new LaunchDecisionFieldError(field, "is an invalid Date.");
    seconds = BigInt(Math.floor(millis / 1000));
  } else if (typeof value === "number") {
    if (!Number.isSafeInteger(value)) {
      throw new LaunchDecisionFieldError(
        field,
        `must be whole unix seconds (a safe integer, or a bigint or a Date), got ${shown(value)}.`,
      );
    }
    seconds = BigInt(value);
  } else if (typeof value === "bigint") {
    seconds = value;
  } else {
    throw new LaunchDecisionFieldError(
      field,
      `must be unix seconds (a number or a bigint) or a Date, got ${shown(value)}.`,
    );
  }
  if (seconds < range.min || seconds > range.max) {
    throw new LaunchDecisionFieldError(field, `must fit ${range.type} unix seconds, got ${seconds}.`);
  }
  return seconds;
}
