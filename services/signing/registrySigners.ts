// What a registry's decision signer set must become so the on-chain guards trust exactly what one
// environment's key ring does (docs/onchain-guard.md, "Keys and rotation"). Pure: the key ring, the
// registry's entries as read and the chain's clock in, the changes out; over a registry in step it plans none.
import { PublicKey } from "@solana/web3.js";
import { onChainKey } from "../../core/address/equality";
import type { ChainFamily } from "../../core/status/sandboxScenarios";
import type { StoredSigningKey } from "./signingKeyStore";

/** Unix seconds, trusted for validFrom <= t < validUntil, as both registries hold them. */
export interface SignerWindow {
  validFrom: bigint;
  validUntil: bigint;
}

/** An entry of a registry's signer set as read from the chain. */
export interface RegistrySigner extends SignerWindow {
  signer: string;
}

/** A revoke ends the window at the chain's clock; `kid` is null for a signer no key of the ring has. */
export type SignerChange =
  | { kind: "revoke"; kid: string | null; signer: string }
  | { kind: "set"; kid: string; signer: string; window: SignerWindow };

export interface SignerPlan {
  /** Revokes first (on Solana they free entries the sets then take), then the sets. */
  changes: SignerChange[];
  /** What the plan cannot bring in step, each saying what to do. */
  problems: string[];
}

export interface SignerPlanInput {
  family: ChainFamily;
  /** The key ring of one environment. */
  keys: readonly StoredSigningKey[];
  current: readonly RegistrySigner[];
  /** The chain's clock, unix seconds. */
  now: bigint;
  overlapSeconds: number;
}

/**
 * The end of an active key's window: the largest each registry accepts, so it never lapses on its own. The EVM
 * registry stores a uint64. The Solana program reads its i64 as signed: a larger u64 turns negative and is
 * refused as valid_from >= valid_until.
 */
export const OPEN_END: Readonly<Record<ChainFamily, bigint>> = {
  evm: 2n ** 64n - 1n,
  solana: 2n ** 63n - 1n,
};

/** The Solana program's config holds 4 entries (DECISION_SIGNER_COUNT, layout.h); the EVM mapping is unbounded. */
const SIGNER_ENTRIES: Readonly<Record<ChainFamily, number>> = {
  evm: Number.POSITIVE_INFINITY,
  solana: 4,
};

interface WantedSigner {
  kid: string;
  signer: string;
  window: SignerWindow;
}

const unixSeconds = (date: Date): bigint => BigInt(Math.floor(date.getTime() / 1000));

/** The key's signer on a registry of `family`: its EVM address, or its Ed25519 public key in base58. */
export function signerOf(key: StoredSigningKey, family: ChainFamily): string | null {
  if (family === "evm") return key.evmAddress ?? null;
  return new PublicKey(Buffer.from(key.publicKeyBase64, "base64")).toBase58();
}

/** active: from creation on, open-ended; retiring: until the overlap ends; revoked: none. */
function windowOf(key: StoredSigningKey, family: ChainFamily, overlapSeconds: number): SignerWindow | null {
  const validFrom = unixSeconds(key.createdAt);
  if (key.status === "active") return { validFrom, validUntil: OPEN_END[family] };
  if (key.status === "retiring" && key.retiringAt !== null) {
    return { validFrom, validUntil: unixSeconds(key.retiringAt) + BigInt(overlapSeconds) };
  }
  return null;
}

/** The active key, then retiring keys by when they turned retiring (to the millisecond), latest first. */
const trustEnd = (key: StoredSigningKey) =>
  key.status === "active" ? Number.POSITIVE_INFINITY : (key.retiringAt?.getTime() ?? 0);
const byTrustEnd = (a: StoredSigningKey, b: StoredSigningKey) => trustEnd(b) - trustEnd(a);

/** The keys the registry must trust now, the active key first, then the retiring ones ending last first. */
function wantedSigners(input: SignerPlanInput): { wanted: WantedSigner[]; problems: string[] } {
  const wanted: WantedSigner[] = [];
  const problems: string[] = [];
  for (const key of [...input.keys].sort(byTrustEnd)) {
    const window = windowOf(key, input.family, input.overlapSeconds);
    if (window === null || window.validUntil <= input.now) continue;
    const signer = signerOf(key, input.family);
    if (signer !== null) wanted.push({ kid: key.kid, signer, window });
    // A retiring key without an EVM address never signed an EVM decision: nothing to keep trusted.
    else if (key.status === "active") {
      problems.push(
        `The active ${key.environment} key ${key.kid} has no EVM address yet, so the EVM registry cannot trust it: run signing-keys:ensure, which gives it one and syncs again.`,
      );
    }
  }
  return { wanted, problems };
}

const sameWindow = (entry: RegistrySigner, window: SignerWindow) =>
  entry.validFrom === window.validFrom && entry.validUntil === window.validUntil;

const setOf = (wanted: WantedSigner): SignerChange => ({ kind: "set", ...wanted });

export function planSignerChanges(input: SignerPlanInput): SignerPlan {
  const key = (signer: string) => onChainKey(input.family, signer);
  const { wanted, problems } = wantedSigners(input);
  const wantedKeys = new Set(wanted.map((entry) => key(entry.signer)));
  const held = new Map(input.current.map((entry) => [key(entry.signer), entry]));
  const kids = new Map(
    input.keys.flatMap((ringKey) => {
      const signer = signerOf(ringKey, input.family);
      return signer === null ? [] : [[key(signer), ringKey.kid] as const];
    }),
  );

  const revokes: SignerChange[] = input.current
    .filter((entry) => entry.validUntil > input.now && !wantedKeys.has(key(entry.signer)))
    .map((entry) => ({ kind: "revoke", kid: kids.get(key(entry.signer)) ?? null, signer: entry.signer }));
  const kept = wanted.filter((entry) => held.has(key(entry.signer)));
  const updates = kept.filter(
    (entry) => !sameWindow(held.get(key(entry.signer)) as RegistrySigner, entry.window),
  );
  // Updates go before additions: an addition may take any ended entry, a kept key's own included.
  const additions = wanted.filter((entry) => !held.has(key(entry.signer)));
  const room = Math.max(0, SIGNER_ENTRIES[input.family] - kept.length);
  // More keys in their window than entries: the last wanted is the retiring key that ends first.
  const oldest = wanted[wanted.length - 1]?.kid;
  for (const left of additions.slice(room)) {
    problems.push(
      `No free decision signer entry for ${left.kid}: all ${SIGNER_ENTRIES[input.family]} hold keys still in their window. Retire the oldest retiring key early (signing-keys:retire --kid ${oldest} --force), which syncs again.`,
    );
  }
  return { changes: [...revokes, ...updates.map(setOf), ...additions.slice(0, room).map(setOf)], problems };
}
