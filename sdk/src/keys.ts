// The published signing keys of one environment (GET /v1/keys), cached for about five minutes and fetched
// again at once when a decision names a key the cache does not know (a rotation). Concurrent callers share
// one fetch. Only entries of the configured environment are kept: a key of the other environment can never
// verify a decision, whatever the response says.
import type { Environment } from "../../core/environment";
import { type PublicKeyEntry, SIGNING_KEY_STATUSES } from "../../core/keyring/publicKeyEntry";
import { type Fetch, send } from "./http";

export const DEFAULT_KEY_CACHE_MS = 5 * 60_000;

export type { PublicKeyEntry };

function isKeyEntry(value: unknown, environment: Environment): value is PublicKeyEntry {
  if (typeof value !== "object" || value === null) return false;
  const entry = value as Record<string, unknown>;
  return (
    typeof entry.kid === "string" &&
    entry.environment === environment &&
    (SIGNING_KEY_STATUSES as readonly unknown[]).includes(entry.status) &&
    typeof entry.publicKeyBase64 === "string"
  );
}

/** The entries of `environment` in a GET /v1/keys body, or null when the body is not that document. */
export function parseKeys(text: string, environment: Environment): PublicKeyEntry[] | null {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return null;
  }
  const keys = (body as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(keys)) return null;
  return keys.filter((entry): entry is PublicKeyEntry => isKeyEntry(entry, environment));
}

export interface KeyCacheOptions {
  apiBase: string;
  environment: Environment;
  cacheMs: number;
  fetch: Fetch;
  now: () => number;
}

export class KeyCache {
  private keys: PublicKeyEntry[] | undefined;
  private fetchedAt = Number.NEGATIVE_INFINITY;
  private inFlight: Promise<PublicKeyEntry[] | null> | undefined;
  /** How many times the keys were fetched (for logs and tests). */
  fetches = 0;

  constructor(private readonly options: KeyCacheOptions) {}

  /** Cached keys while fresh, else a fetch; null when they cannot be had before the deadline. */
  async current(deadline: number): Promise<PublicKeyEntry[] | null> {
    if (this.keys !== undefined && this.options.now() - this.fetchedAt < this.options.cacheMs)
      return this.keys;
    return this.refresh(deadline);
  }

  /**
   * Fetches the keys now; the cache keeps them on success. Concurrent callers share one fetch. When the cache
   * already lists `wantedKid` (another caller fetched it meanwhile), the cache is the answer; when a shared
   * fetch had started before the caller saw `wantedKid` and lacks it, the caller's own fetch follows.
   */
  async refresh(deadline: number, wantedKid?: string): Promise<PublicKeyEntry[] | null> {
    const lists = (keys: readonly PublicKeyEntry[] | null | undefined) =>
      wantedKid !== undefined && keys?.some((key) => key.kid === wantedKid) === true;
    if (lists(this.keys)) return this.keys as PublicKeyEntry[];
    const joined = this.inFlight !== undefined;
    const keys = await this.shared(deadline);
    return joined && wantedKid !== undefined && keys !== null && !lists(keys) ? this.shared(deadline) : keys;
  }

  private shared(deadline: number): Promise<PublicKeyEntry[] | null> {
    this.inFlight ??= this.load(deadline).finally(() => {
      this.inFlight = undefined;
    });
    return this.inFlight;
  }

  private async load(deadline: number): Promise<PublicKeyEntry[] | null> {
    this.fetches++;
    const outcome = await send(
      this.options.fetch,
      {
        method: "GET",
        url: `${this.options.apiBase}/v1/keys?environment=${this.options.environment}`,
        headers: { accept: "application/json" },
      },
      { deadline, retry: true },
    );
    if (outcome.kind !== "answer" || outcome.status !== 200) return null;
    const keys = parseKeys(outcome.text, this.options.environment);
    if (keys === null) return null;
    this.keys = keys;
    this.fetchedAt = this.options.now();
    return keys;
  }
}
