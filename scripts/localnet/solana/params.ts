// Reading JSON-RPC params the way Agave does: positional arguments plus an optional config object.
import { PublicKey } from "@solana/web3.js";
import type { Commitment } from "./ledger";
import { invalidParams } from "./rpcError";

export type Params = unknown[];
export type Config = Record<string, unknown>;

export function stringParam(params: Params, index: number, what: string): string {
  const value = params[index];
  if (typeof value !== "string")
    throw invalidParams(`Invalid params: expected ${what} as a string at position ${index}`);
  return value;
}

export function addressParam(params: Params, index: number): string {
  const value = stringParam(params, index, "a base58 address");
  try {
    return new PublicKey(value).toBase58();
  } catch {
    throw invalidParams("Invalid param: Invalid");
  }
}

export function configParam(params: Params, index: number): Config {
  const value = params[index];
  if (value === undefined || value === null) return {};
  if (typeof value !== "object" || Array.isArray(value))
    throw invalidParams(`Invalid params: expected a config object at position ${index}`);
  return value as Config;
}

/** The commitment of a request; validators default to `finalized`. */
export function commitmentOf(config: Config, minimum?: "confirmed"): Commitment {
  const commitment = config.commitment ?? "finalized";
  if (commitment !== "processed" && commitment !== "confirmed" && commitment !== "finalized") {
    throw invalidParams(`Invalid commitment "${String(commitment)}": use processed, confirmed or finalized`);
  }
  if (minimum === "confirmed" && commitment === "processed") {
    throw invalidParams("Method does not support commitment below `confirmed`");
  }
  return commitment;
}

export function optionalNumber(config: Config, key: string): number | undefined {
  const value = config[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0) {
    throw invalidParams(`Invalid params: "${key}" must be a non-negative integer`);
  }
  return value;
}

export function optionalString(config: Config, key: string): string | undefined {
  const value = config[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") throw invalidParams(`Invalid params: "${key}" must be a string`);
  return value;
}
