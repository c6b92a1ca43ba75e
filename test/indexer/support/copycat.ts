// A copycat against the API that decides from the mirror an indexer test writes: the API reads the test chain's
// registry when the mirror is behind (on-chain first), and a client asks validate again and again for a pair
// another wallet holds, recording every decision, so a test can show that none of them was an allow.
import { expect } from "chai";
import type { Pool } from "pg";
import { registryCatalogue } from "../../../chains/catalogue";
import type { RegistryCatalogue, RegistryClient } from "../../../chains/registryClient";
import { readManifest } from "../../../config/manifest";
import { normalizeIdentity } from "../../../core/fold";
import { manifestChains } from "../../../services/mirror/chainCatalogue";
import { bearer, issueKey, startTestApi, type TestApi } from "../../api/support/harness";
import type { TestDatabase } from "../../support/testDatabase";
import { mirrorRows } from "./readModel";

/** A wallet that holds nothing anywhere. */
export const COPYCAT = "0xc0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0";

export interface Pair {
  name: string;
  ticker: string;
}

export interface DecisionApi {
  api: TestApi;
  /** The registry of `chain` as the API reads it. */
  registry(chain: string): RegistryClient;
  /** POST /v1/launches/validate with a production key; the signed decision ("allow", "block", ...). */
  validate(chain: string, pair: Pair, launcher: string): Promise<string>;
  close(): Promise<void>;
}

/** Reads `chain`'s production registry from `registries`. */
function productionRegistry(registries: RegistryCatalogue): DecisionApi["registry"] {
  return (chain) => {
    const registry = registries.production.get(chain);
    if (registry === undefined) throw new Error(`no registry for ${chain}`);
    return registry;
  };
}

/** The registries of the manifest at `manifestPath`, read directly (no API), as the API reads them. */
export function registriesOf(manifestPath: string): Pick<DecisionApi, "registry"> {
  return { registry: productionRegistry(registryCatalogue(readManifest(manifestPath))) };
}

/** The API on `database`, deciding the chains of the manifest at `manifestPath` and reading their registries. */
export async function startDecisionApi(database: TestDatabase, manifestPath: string): Promise<DecisionApi> {
  const manifest = readManifest(manifestPath);
  const registries = registryCatalogue(manifest);
  const api = await startTestApi({
    db: database,
    deps: { registries, decisions: { chains: manifestChains(manifest) } },
  });
  const key = await issueKey(api, "production", { rateLimitPerMinute: 2_000 });
  return {
    api,
    registry: productionRegistry(registries),
    async validate(chain, pair, launcher) {
      const response = await api.call({
        method: "POST",
        path: "/api/v1/launches/validate",
        headers: bearer(key.secret),
        body: { chain, ...pair, launcher },
      });
      expect(response.status, response.text).to.equal(200);
      return (response.body as { decision: string }).decision;
    },
    close: () => api.close(),
  };
}

export interface Answer {
  /** When the request was sent (ms). */
  sentAt: number;
  decision: string;
}

export interface CopycatPoll {
  /** Stops asking; resolves with every answer, in order. */
  stop(): Promise<Answer[]>;
}

/** Asks validate for `COPYCAT` on `pair` every `everyMs` (one request at a time) until stopped. */
export function pollAsCopycat(
  decisions: DecisionApi,
  chain: string,
  pair: Pair,
  everyMs: number,
): CopycatPoll {
  const answers: Answer[] = [];
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      const sentAt = Date.now();
      answers.push({ sentAt, decision: await decisions.validate(chain, pair, COPYCAT) });
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, sentAt + everyMs - Date.now())));
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
      return answers;
    },
  };
}

/** Every row of `chain`'s mirror equals the registry's record of its pair, and the mirror has every pair of `pairs`. */
export async function expectMirrorEqualsRegistry(
  pool: Pool,
  decisions: Pick<DecisionApi, "registry">,
  chain: string,
  pairs: readonly Pair[],
): Promise<void> {
  const rows = await mirrorRows(pool, chain);
  const identities = pairs.map((pair) => normalizeIdentity(pair.name, pair.ticker));
  expect(rows.map((row) => row.name_hash).sort()).to.deep.equal(identities.map((id) => id.nameHash).sort());
  for (const identity of identities) {
    const onChain = await decisions.registry(chain).reservationOf(identity);
    const row = rows.find((each) => each.name_hash === identity.nameHash);
    expect(onChain, identity.identityKey).to.not.equal(null);
    expect(row?.launcher).to.equal(onChain?.launcher.toLowerCase());
    expect(row?.expires_at.getTime()).to.equal(onChain?.expiresAt.getTime());
  }
}
