// Time to full recovery after a fault: from the fault's end until, for every chain, /v1/health reports the chain
// ok with its index past the chain's head at the fault's end (so its indexer has resumed, not merely kept an
// old checkpoint young), a validate of the chain's free identity answers 200 with a verified allow, and the
// keyless check answers 200 allow. Probed every PROBE_INTERVAL_MS until the deadline; a chain that has not
// recovered by then has no recovery time.

import type { Ask } from "./ask";
import { freeCase, HEALTH_PATH, type SoakChain } from "./cases";
import type { SoakClient } from "./client";
import type { Sample } from "./judge";

const PROBE_INTERVAL_MS = 1_000;
/** How often a chain still down is reported on stderr. */
const REPORT_EVERY_MS = 10_000;

interface ChainHealth {
  chain: string;
  status: string;
  indexedNumber: number | null;
}

export interface RecoveryProbe {
  client: SoakClient;
  ask: Ask;
  chains: readonly SoakChain[];
  /** Each chain's head (block or slot) when the fault ended, read straight from its node. */
  marks: ReadonlyMap<string, number>;
  endedAt: number;
  deadline: number;
  log(line: string): void;
}

/** Seconds from the fault's end to each chain's recovery; undefined where it did not recover by the deadline. */
export type Recoveries = Map<string, number | undefined>;

function healthOf(body: unknown): ChainHealth[] {
  const chains = (body as { chains?: unknown } | undefined)?.chains;
  return Array.isArray(chains) ? (chains as ChainHealth[]) : [];
}

function describe(sample: Sample): string {
  if (sample.status !== 200) return String(sample.status);
  return sample.verificationFailure
    ? `allow failing verification (${sample.verificationFailure})`
    : `${sample.decision}`;
}

/** Why `target` is not recovered yet, or undefined when it is. */
async function chainProblem(probe: RecoveryProbe, health: ChainHealth[] | string, target: SoakChain) {
  const [validate, check] = await Promise.all([
    probe.ask(freeCase("validate", target), true),
    probe.ask(freeCase("check", target), true),
  ]);
  const problems: string[] = [];
  const mark = probe.marks.get(target.chain) ?? 0;
  if (typeof health === "string") problems.push(`health ${health}`);
  else {
    const entry = health.find((chain) => chain.chain === target.chain);
    if (entry === undefined) problems.push("health lists no such chain");
    else if (entry.status !== "ok") problems.push(`health ${entry.status}`);
    else if ((entry.indexedNumber ?? -1) < mark)
      problems.push(`indexed ${entry.indexedNumber} < head at fault end ${mark}`);
  }
  if (validate.status !== 200 || validate.decision !== "allow" || validate.verificationFailure)
    problems.push(`validate ${describe(validate)}`);
  if (check.status !== 200 || check.decision !== "allow") problems.push(`check ${describe(check)}`);
  return problems.length > 0 ? problems.join(", ") : undefined;
}

export async function measureRecovery(probe: RecoveryProbe): Promise<Recoveries> {
  const recoveries: Recoveries = new Map(probe.chains.map((target) => [target.chain, undefined]));
  const lastProblem = new Map<string, string>();
  let nextReport = Date.now() + REPORT_EVERY_MS;
  while (Date.now() < probe.deadline) {
    const roundStarted = Date.now();
    const pending = probe.chains.filter((target) => recoveries.get(target.chain) === undefined);
    if (pending.length === 0) break;
    const answer = await probe.client.get(HEALTH_PATH);
    const health = answer.status === 200 ? healthOf(answer.body) : String(answer.status);
    const problems = await Promise.all(pending.map((target) => chainProblem(probe, health, target)));
    pending.forEach((target, index) => {
      const problem = problems[index];
      if (problem === undefined) recoveries.set(target.chain, (Date.now() - probe.endedAt) / 1000);
      else lastProblem.set(target.chain, problem);
    });
    if (Date.now() >= nextReport) {
      for (const target of pending)
        if (recoveries.get(target.chain) === undefined)
          probe.log(`  ${target.chain} not recovered yet: ${lastProblem.get(target.chain)}`);
      nextReport += REPORT_EVERY_MS;
    }
    const wait = roundStarted + PROBE_INTERVAL_MS - Date.now();
    if (wait > 0)
      await new Promise((resolve) => setTimeout(resolve, Math.min(wait, probe.deadline - Date.now())));
  }
  for (const [chain, seconds] of recoveries)
    if (seconds === undefined)
      probe.log(`  ${chain} did NOT recover in time; last: ${lastProblem.get(chain)}`);
  return recoveries;
}
