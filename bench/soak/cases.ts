// What the soak asks, per chain: a free identity (allow), and an identity a real wallet reserved on-chain during
// setup, asked for by its owner (allow) and by another wallet (block). The load alternates allowed and blocked
// cases over both chains, on the signed validate route and the keyless identity check.

export interface Identity {
  name: string;
  ticker: string;
}

/** One chain as the soak uses it. */
export interface SoakChain {
  chain: string;
  family: "evm" | "solana";
  /** Nobody holds it: every launcher is allowed while the chain's data is fresh. */
  free: Identity;
  /** Reserved on-chain by `owner` for a day. */
  reserved: Identity;
  owner: string;
  /** A well-formed wallet of the chain that holds nothing. */
  other: string;
}

export type Route = "validate" | "check";

export interface RequestCase {
  route: Route;
  chain: string;
  identity: Identity;
  launcher: string;
  /** The decision while the service is healthy. */
  expected: "allow" | "block";
  /** An allow for this case lets a copycat launch a reserved identity. */
  reservedForSomeoneElse: boolean;
}

export const VALIDATE_PATH = "/api/v1/launches/validate";
export const CHECK_PATH = "/api/v1/identity/check";
export const HEALTH_PATH = "/api/v1/health";
export const KEYS_PATH = "/api/v1/keys";

/** Allowed and blocked cases in alternation, chain after chain. */
export function requestCases(route: Route, chains: readonly SoakChain[]): RequestCase[] {
  return chains.flatMap((target) => {
    const base = { route, chain: target.chain };
    const blocked = {
      ...base,
      identity: target.reserved,
      launcher: target.other,
      expected: "block" as const,
      reservedForSomeoneElse: true,
    };
    return [
      {
        ...base,
        identity: target.free,
        launcher: target.other,
        expected: "allow" as const,
        reservedForSomeoneElse: false,
      },
      blocked,
      {
        ...base,
        identity: target.reserved,
        launcher: target.owner,
        expected: "allow" as const,
        reservedForSomeoneElse: false,
      },
      blocked,
    ];
  });
}

/** The free identity of `target` as an always-allowed probe. */
export function freeCase(route: Route, target: SoakChain): RequestCase {
  return {
    route,
    chain: target.chain,
    identity: target.free,
    launcher: target.other,
    expected: "allow",
    reservedForSomeoneElse: false,
  };
}

export function checkPath(request: RequestCase): string {
  const query = new URLSearchParams({
    chain: request.chain,
    name: request.identity.name,
    ticker: request.identity.ticker,
    launcher: request.launcher,
  });
  return `${CHECK_PATH}?${query}`;
}

export function validateBody(request: RequestCase): Record<string, string> {
  return { chain: request.chain, ...request.identity, launcher: request.launcher };
}
