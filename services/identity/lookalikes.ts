// The look-alike advisory (docs/lookalikes.md): another identity whose look-alike key is the asked name's,
// and that a live hold or lock protects. It never changes a decision or a signed field: the check answers it
// as `lookalikeOf`, validation as an unsigned advisory.
import { lookalikeKeyOfIdentity } from "../../core/lookalike";
import { SANDBOX_SCENARIO_KEYS, sandboxScenarioRecords } from "../../core/status";
import { mergeChains } from "../mirror/chainCatalogue";
import type { EvaluationContext } from "./evaluation";
import type { DecisionSnapshot, LookalikeRecord } from "./recordLoader";

export interface Lookalike {
  identityKey: string;
  status: LookalikeRecord["status"];
  chain: string;
}

export interface LookalikeAdvisory extends Lookalike {
  kind: "lookalike";
  message: string;
}

/** Seeded sandbox scenarios by look-alike key: they are built from the clock, never stored. */
const SCENARIOS_BY_LOOKALIKE: ReadonlyMap<string, readonly string[]> = SANDBOX_SCENARIO_KEYS.reduce(
  (byKey, identityKey) => {
    const key = lookalikeKeyOfIdentity(identityKey);
    return byKey.set(key, [...(byKey.get(key) ?? []), identityKey]);
  },
  new Map<string, string[]>(),
);

function scenarioRecords(snapshot: DecisionSnapshot, context: EvaluationContext): LookalikeRecord[] {
  const keys = SCENARIOS_BY_LOOKALIKE.get(snapshot.lookalikeKey ?? "") ?? [];
  const chains = keys.length === 0 ? [] : mergeChains(context.configuredChains, snapshot.checkpoints);
  return keys
    .filter((identityKey) => identityKey !== snapshot.identityKey)
    .flatMap((identityKey) => {
      const records = sandboxScenarioRecords(identityKey, chains, context.now);
      if (records === undefined) return [];
      return [
        ...records.holds.map((hold) => ({ identityKey, status: "reserved" as const, ...hold })),
        ...records.locks.map((lock) => ({ identityKey, status: "protected" as const, ...lock })),
      ];
    });
}

/**
 * The protected or reserved identity the snapshot's name looks like, preferring one on `chain` (else any
 * chain), then the longest-lived; null when none.
 */
export function lookalikeOf(
  snapshot: DecisionSnapshot,
  context: EvaluationContext,
  chain: string | null,
): Lookalike | null {
  if (snapshot.lookalikeKey === null) return null;
  const stored = snapshot.lookalikes;
  const records =
    context.environment === "sandbox" ? [...stored, ...scenarioRecords(snapshot, context)] : stored;
  const live = records
    .filter((record) => record.expiresAt > context.now)
    .sort((left, right) => right.expiresAt.getTime() - left.expiresAt.getTime());
  const found = live.find((record) => record.chain === chain) ?? live[0];
  return found === undefined
    ? null
    : { identityKey: found.identityKey, status: found.status, chain: found.chain };
}

/** The warning sentence of a look-alike. */
export function lookalikeMessage(lookalike: Lookalike): string {
  return `Warning: this name looks like ${lookalike.identityKey}, ${lookalike.status} on ${lookalike.chain}; it may be a copy (look-alike characters). The decision is unchanged; review before launch.`;
}

/** Validation's unsigned advisories: the look-alike, if any. */
export function lookalikeAdvisories(
  snapshot: DecisionSnapshot,
  context: EvaluationContext,
  chain: string,
): LookalikeAdvisory[] {
  const lookalike = lookalikeOf(snapshot, context, chain);
  return lookalike === null
    ? []
    : [{ kind: "lookalike", ...lookalike, message: lookalikeMessage(lookalike) }];
}
