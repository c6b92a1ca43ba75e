// The seven seeded sandbox scenarios of the spec, as records relative to the instant they are read: built at
// every sandbox read from the clock, never stored, so they never lapse and nobody can change them. They are
// global and read-only; every other pair is free unless the asking partner's own sandbox records hold it.
import type { Environment } from "../environment";
import { ApiError } from "../errors/catalogue";
import type { IdentityRecords } from "./records";

export type ChainFamily = "evm" | "solana";

/** The published wallet authorized for SANDBOXFOX::SFOX (and the owner of the other owned scenarios). */
export const SANDBOX_DESIGNATED_LAUNCHER: Readonly<Record<ChainFamily, string>> = {
  evm: "0x5afef0c55afef0c55afef0c55afef0c55afef0c5",
  solana: "D77Vtu5A72TQBoQ6P7T7XamMHB3p4NM2rHkhLLMfo3Zc",
};

export interface SandboxChain {
  chain: string;
  family: ChainFamily;
}

export interface SandboxScenario {
  identityKey: string;
  /** The spec's description of the seeded state. */
  seededState: string;
  records: IdentityRecords;
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const SEED_ACTOR = "sandbox-seed";

interface ScenarioDefinition {
  identityKey: string;
  seededState: string;
  build(chain: SandboxChain, now: number): IdentityRecords;
}

const at = (millis: number) => new Date(millis);
const empty: IdentityRecords = { holds: [], locks: [], guardian: [], launches: [] };

const DEFINITIONS: readonly ScenarioDefinition[] = [
  {
    identityKey: "SANDBOXFOX::SFOX",
    seededState: "Active reservation; the designated launcher gets allow, any other launcher block",
    build: ({ chain, family }, t) => ({
      ...empty,
      // A 30-day hold starting at every read, so the scenario never lapses.
      holds: [
        {
          kind: "sandbox_hold",
          chain,
          launcher: SANDBOX_DESIGNATED_LAUNCHER[family],
          startsAt: at(t),
          expiresAt: at(t + 30 * DAY),
        },
      ],
    }),
  },
  {
    identityKey: "MOONBADGER::BADGER",
    seededState: "Protected after bonding (reserved, 60-day lock); non-owner gets block",
    build: ({ chain, family }, t) => {
      const owner = SANDBOX_DESIGNATED_LAUNCHER[family];
      return {
        ...empty,
        holds: [
          {
            kind: "sandbox_hold",
            chain,
            launcher: owner,
            startsAt: at(t - 2 * DAY),
            expiresAt: at(t + 5 * DAY),
          },
        ],
        launches: [
          {
            chain,
            launcher: owner,
            tokenOrMint: "sandbox-moonbadger",
            launchpad: "sandbox",
            at: at(t - DAY),
          },
        ],
        locks: [
          {
            kind: "bonded",
            chain,
            authorizedLauncher: owner,
            appliedAt: at(t),
            expiresAt: at(t + 60 * DAY),
            wasReserved: true,
          },
        ],
      };
    },
  },
  {
    identityKey: "IRONWHALE::IRON",
    seededState: "Protected after verified milestone (90-day lock)",
    build: ({ chain, family }, t) => {
      const owner = SANDBOX_DESIGNATED_LAUNCHER[family];
      return {
        ...empty,
        holds: [
          {
            kind: "sandbox_hold",
            chain,
            launcher: owner,
            startsAt: at(t - 3 * DAY),
            expiresAt: at(t + 4 * DAY),
          },
        ],
        launches: [
          {
            chain,
            launcher: owner,
            tokenOrMint: "sandbox-ironwhale",
            launchpad: "sandbox",
            at: at(t - 2 * DAY),
          },
        ],
        locks: [
          {
            kind: "milestone",
            chain,
            authorizedLauncher: owner,
            appliedAt: at(t),
            expiresAt: at(t + 90 * DAY),
            wasReserved: true,
          },
        ],
      };
    },
  },
  {
    identityKey: "DUSKRAVEN::DUSK",
    seededState: "Expired protection; available again",
    build: ({ chain, family }, t) => ({
      ...empty,
      holds: [
        {
          kind: "sandbox_hold",
          chain,
          launcher: SANDBOX_DESIGNATED_LAUNCHER[family],
          startsAt: at(t - 8 * DAY),
          expiresAt: at(t - DAY),
        },
      ],
    }),
  },
  {
    identityKey: "VAMPCOIN::VAMP",
    seededState: "Graduated identity block; always blocked",
    build: (_chain, t) => ({
      ...empty,
      guardian: [
        {
          kind: "block",
          chain: null,
          at: at(t),
          graduated: true,
          expiresAt: null,
          actor: SEED_ACTOR,
          reason: "graduated identity (sandbox scenario)",
        },
      ],
    }),
  },
  {
    identityKey: "CLEARSKY::CLEAR",
    seededState: "Cleared by a guardian after a mistaken block; available",
    build: (_chain, t) => ({
      ...empty,
      guardian: [
        {
          kind: "block",
          chain: null,
          at: at(t - 2 * DAY),
          graduated: false,
          expiresAt: null,
          actor: SEED_ACTOR,
          reason: "suspected copycat (sandbox scenario)",
        },
        {
          kind: "clear",
          chain: null,
          at: at(t - DAY),
          graduated: false,
          expiresAt: null,
          actor: SEED_ACTOR,
          reason: "block was mistaken (sandbox scenario)",
        },
      ],
    }),
  },
  {
    identityKey: "NIGHTSHADE::SHADE",
    seededState: "Unreserved bond; short 48-hour lock",
    build: ({ chain, family }, t) => {
      // Never reserved: the lock's launcher is the wallet that deployed the token (the launch report).
      const deployer = SANDBOX_DESIGNATED_LAUNCHER[family];
      return {
        ...empty,
        launches: [
          {
            chain,
            launcher: deployer,
            tokenOrMint: "sandbox-nightshade",
            launchpad: "sandbox",
            at: at(t - HOUR),
          },
        ],
        locks: [
          {
            kind: "bonded",
            chain,
            authorizedLauncher: deployer,
            appliedAt: at(t),
            expiresAt: at(t + 48 * HOUR),
            wasReserved: false,
          },
        ],
      };
    },
  },
];

function merge(parts: readonly IdentityRecords[]): IdentityRecords {
  return {
    holds: parts.flatMap((part) => part.holds),
    locks: parts.flatMap((part) => part.locks),
    // Guardian records with chain null apply everywhere: keep one copy, not one per chain.
    guardian: parts[0]?.guardian ?? [],
    launches: parts.flatMap((part) => part.launches),
  };
}

const BY_KEY: ReadonlyMap<string, ScenarioDefinition> = new Map(
  DEFINITIONS.map((definition) => [definition.identityKey, definition]),
);

/** The identity keys of the seeded scenarios. */
export const SANDBOX_SCENARIO_KEYS: readonly string[] = DEFINITIONS.map(
  (definition) => definition.identityKey,
);

/** Whether `identityKey` is one of the seven seeded scenarios (read-only for every partner). */
export function isSandboxScenario(identityKey: string): boolean {
  return BY_KEY.has(identityKey);
}

/**
 * Every sandbox write (a hold, a prepare, a sandbox-confirm, a launch report, a lock) passes here first: a
 * partner can never change a seeded scenario (403 sandbox_scenario_read_only). Production is not concerned.
 */
export function assertNotSandboxScenario(environment: Environment, identityKey: string): void {
  if (environment === "sandbox" && isSandboxScenario(identityKey)) {
    throw new ApiError("sandbox_scenario_read_only", undefined, { identityKey });
  }
}

/** The scenario's records on the given chains as of `now`; undefined for a pair that is not a scenario. */
export function sandboxScenarioRecords(
  identityKey: string,
  chains: readonly SandboxChain[],
  now: Date,
): IdentityRecords | undefined {
  const definition = BY_KEY.get(identityKey);
  return definition && merge(chains.map((chain) => definition.build(chain, now.getTime())));
}

/** Every scenario's records on the given chains, as of `now`. */
export function sandboxScenarios(chains: readonly SandboxChain[], now: Date): SandboxScenario[] {
  return DEFINITIONS.map((definition) => ({
    identityKey: definition.identityKey,
    seededState: definition.seededState,
    records: merge(chains.map((chain) => definition.build(chain, now.getTime()))),
  }));
}
