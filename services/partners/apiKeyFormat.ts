// API key format: `svc_sbx_` or `svc_live_` then 43 base64url characters (32 random bytes). Only the SHA-256 of
// the whole key is stored; the environment is readable from the prefix without a database lookup.
import { createHash, randomBytes } from "node:crypto";
import type { Environment } from "../../core/environment";

export const API_KEY_PREFIX: Readonly<Record<Environment, string>> = {
  sandbox: "svc_sbx_",
  production: "svc_live_",
};

const API_KEY_PATTERN = /^svc_(sbx|live)_[A-Za-z0-9_-]{43}$/;
/** Characters of the raw key kept for display: the prefix plus four secret characters. */
const DISPLAY_SECRET_CHARS = 4;

export interface IssuedApiKey {
  /** Public identifier, safe to log and show: `key_` + 16 hex characters. */
  keyId: string;
  /** The raw key; shown to its owner once, never stored. */
  secret: string;
  secretHash: Buffer;
  displayPrefix: string;
}

/** The environment a well-formed key belongs to, or null for anything that is not one of our keys. */
export function apiKeyEnvironment(raw: string): Environment | null {
  const match = API_KEY_PATTERN.exec(raw);
  if (!match) return null;
  return match[1] === "sbx" ? "sandbox" : "production";
}

export function apiKeyHash(raw: string): Buffer {
  return createHash("sha256").update(raw, "utf8").digest();
}

export function displayPrefixOf(raw: string): string {
  const environment = apiKeyEnvironment(raw);
  const prefix = environment ? API_KEY_PREFIX[environment] : "";
  return `${raw.slice(0, prefix.length + DISPLAY_SECRET_CHARS)}…`;
}

export function issueApiKey(environment: Environment): IssuedApiKey {
  const secret = `${API_KEY_PREFIX[environment]}${randomBytes(32).toString("base64url")}`;
  return {
    keyId: `key_${randomBytes(8).toString("hex")}`,
    secret,
    secretHash: apiKeyHash(secret),
    displayPrefix: displayPrefixOf(secret),
  };
}

/** A new partner id: kept by a key across rotation, shared by a partner's keys. */
export function newPartnerId(): string {
  return `ptn_${randomBytes(8).toString("hex")}`;
}
