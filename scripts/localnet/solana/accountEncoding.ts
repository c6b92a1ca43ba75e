// Account JSON as validators return it, with data encodings, dataSlice and getProgramAccounts filters.
import { base58Decode, base58Encode } from "./base58";
import { type Config, optionalString } from "./params";
import { invalidParams } from "./rpcError";

export interface AccountState {
  lamports: bigint;
  data: Uint8Array;
  owner: string;
  executable: boolean;
}

/** A Uint8Array over the same memory as litesvm's read-only byte arrays (no copy). */
export function byteView(data: {
  buffer: ArrayBufferLike;
  byteOffset: number;
  byteLength: number;
}): Uint8Array {
  return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
}

export interface DataSlice {
  offset: number;
  length: number;
}

/** Validators report u64::MAX as `rentEpoch` of rent-exempt accounts; as a JS number it is 2^64. */
const RENT_EXEMPT_EPOCH = 2 ** 64;
const MAX_BASE58_BYTES = 128;
const MAX_FILTERS = 4;

export function dataSliceOf(config: Config): DataSlice | undefined {
  const slice = config.dataSlice as Partial<DataSlice> | undefined;
  if (slice === undefined || slice === null) return undefined;
  if (!Number.isInteger(slice.offset) || !Number.isInteger(slice.length)) {
    throw invalidParams("Invalid params: dataSlice needs integer offset and length");
  }
  return slice as DataSlice;
}

export function encodingOf(config: Config): string {
  const encoding = optionalString(config, "encoding") ?? "base64";
  // No parser exists for this project's accounts, so jsonParsed falls back to base64 as on a validator.
  if (encoding === "jsonParsed") return "base64";
  if (encoding !== "base64" && encoding !== "base58") {
    throw invalidParams(`Unsupported encoding "${encoding}": use base64, base58 or jsonParsed`);
  }
  return encoding;
}

export function encodeAccount(account: AccountState, encoding: string, slice?: DataSlice) {
  const data = slice ? account.data.subarray(slice.offset, slice.offset + slice.length) : account.data;
  if (encoding === "base58" && data.length > MAX_BASE58_BYTES) {
    throw invalidParams(
      "Encoded binary (base 58) data should be less than 128 bytes, please use Base64 encoding.",
    );
  }
  return {
    data:
      encoding === "base58"
        ? [base58Encode(data), "base58"]
        : [Buffer.from(data).toString("base64"), "base64"],
    executable: account.executable,
    lamports: Number(account.lamports),
    owner: account.owner,
    rentEpoch: RENT_EXEMPT_EPOCH,
    space: account.data.length,
  };
}

export type AccountFilter = (data: Uint8Array) => boolean;

function memcmpFilter(memcmp: Record<string, unknown>): AccountFilter {
  const offset = memcmp.offset;
  const bytes = memcmp.bytes;
  if (!Number.isInteger(offset) || typeof bytes !== "string") {
    throw invalidParams("Invalid params: memcmp needs an integer offset and a bytes string");
  }
  const wanted =
    memcmp.encoding === "base64" ? Buffer.from(bytes, "base64") : Buffer.from(base58Decode(bytes));
  return (data) =>
    Buffer.from(data)
      .subarray(offset as number, (offset as number) + wanted.length)
      .equals(wanted);
}

/** The dataSize / memcmp filters of getProgramAccounts, combined with AND. */
export function accountFiltersOf(config: Config): AccountFilter[] {
  const filters = config.filters;
  if (filters === undefined || filters === null) return [];
  if (!Array.isArray(filters)) throw invalidParams("Invalid params: filters must be an array");
  if (filters.length > MAX_FILTERS) throw invalidParams(`Too many filters provided; max ${MAX_FILTERS}`);
  return filters.map((filter: Record<string, unknown>) => {
    if (typeof filter.dataSize === "number") {
      const size = filter.dataSize;
      return (data: Uint8Array) => data.length === size;
    }
    if (filter.memcmp && typeof filter.memcmp === "object")
      return memcmpFilter(filter.memcmp as Record<string, unknown>);
    throw invalidParams(
      `Invalid params: unsupported filter ${JSON.stringify(filter)}; use dataSize or memcmp`,
    );
  });
}
