// Soak: the whole service as an operator runs it (`npm start` on a private PostgreSQL, both indexers, the worker,
// the local chains), under steady load for SOAK_SECONDS (default 600), while the database is restarted twice and
// the Solana RPC is cut once. It answers: is every allow a launchpad receives one it may act on (verified
// signature, fresh, for the request), does the service fail closed while a dependency is away (no allow while
// the database is down or the chain's data is stale; 503, not another 5xx), and how long after each fault ends
// until every chain answers with fresh data again. Figures go to stdout as JSON lines, progress to stderr;
// docs/indexers.md ("Soak") says what each figure means and its goal.
import { DEFAULT_FRESHNESS_BOUND_SECONDS } from "../core/status";
import type { Emit } from "./run";
import { type Ask, asker } from "./soak/ask";
import { requestCases } from "./soak/cases";
import { type SoakClient, soakClient } from "./soak/client";
import type { Sample } from "./soak/judge";
import { steadyLoad } from "./soak/load";
import { measureRecovery } from "./soak/recovery";
import { type FaultRecord, NOT_RECOVERED, soakMetrics, type UnsafeWindow } from "./soak/report";
import { faultSchedule, type PlannedFault, soakSeconds } from "./soak/schedule";
import { type SoakStack, startSoakStack } from "./soak/stack";

/** 60 requests a second in all: moderate on 2 cores, where the service, Postgres and the chains share them. */
const VALIDATE_PER_SECOND = 40;
const CHECK_PER_SECOND = 20;
const MAX_IN_FLIGHT_PER_ROUTE = 32;
const REQUEST_TIMEOUT_MS = 5_000;
/** An indexer pass under way when the RPC is cut may still stamp its checkpoint a moment later. */
const STALE_MARGIN_MS = 5_000;
const PROGRESS_EVERY_MS = 10_000;

const note = (line: string) => process.stderr.write(`${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

interface Run {
  stack: SoakStack;
  client: SoakClient;
  ask: Ask;
  loadStartedAt: number;
  loadEndsAt: number;
  /** Seconds since the load started, for progress lines. */
  at(): string;
}

/** Injects one fault; returns when the dependency is back, with the stretch in which an allow is unsafe. */
async function inject(
  run: Run,
  fault: PlannedFault,
): Promise<{ startedAt: number; endedAt: number; unsafe: UnsafeWindow }> {
  const { stack } = run;
  const startedAt = Date.now();
  if (fault.kind === "database_restart") {
    note(`${run.at()} ${fault.name}: pg_ctl stop -m fast, ${fault.outageSeconds} s down, pg_ctl start`);
    await stack.postgres.stop("fast");
    const from = Date.now();
    await sleep(fault.outageSeconds * 1000);
    const until = Date.now();
    await stack.postgres.start();
    return { startedAt, endedAt: Date.now(), unsafe: { reason: "database_down", from, until } };
  }
  const solana = stack.chains.find((chain) => chain.family === "solana");
  note(`${run.at()} ${fault.name}: Solana RPC and websocket cut for ${fault.outageSeconds} s`);
  stack.solanaLink.cut();
  await sleep(fault.outageSeconds * 1000);
  stack.solanaLink.restore();
  const endedAt = Date.now();
  // Nothing newer than the cut can reach the mirror: past the freshness bound, its data is stale for sure.
  const from = startedAt + DEFAULT_FRESHNESS_BOUND_SECONDS * 1000 + STALE_MARGIN_MS;
  return {
    startedAt,
    endedAt,
    unsafe: { reason: "chain_stale", from, until: endedAt, chain: solana?.chain },
  };
}

async function runFaults(run: Run, schedule: readonly PlannedFault[]): Promise<FaultRecord[]> {
  const records: FaultRecord[] = [];
  for (const [index, fault] of schedule.entries()) {
    await sleep(run.loadStartedAt + fault.atSeconds * 1000 - Date.now());
    const injected = await inject(run, fault);
    // Without the heads, recovery falls back to health ok and allowed answers (stderr says so).
    const marks = await run.stack.heads().catch((error: Error) => {
      note(`${run.at()} ${error.message}; recovery of ${fault.name} is judged without the chains' heads`);
      return new Map<string, number>();
    });
    const next = schedule[index + 1];
    const deadline = next === undefined ? run.loadEndsAt : run.loadStartedAt + next.atSeconds * 1000;
    note(
      `${run.at()} ${fault.name} over; measuring recovery (until the ${next ? "next fault" : "end of the run"})`,
    );
    const recoveries = await measureRecovery({
      client: run.client,
      ask: run.ask,
      chains: run.stack.chains,
      marks,
      endedAt: injected.endedAt,
      deadline,
      log: note,
    });
    const times = [...recoveries].map(
      ([chain, seconds]) => `${chain} ${seconds === undefined ? "NOT RECOVERED" : `${seconds.toFixed(1)} s`}`,
    );
    note(`${run.at()} ${fault.name} recovery: ${times.join(", ")}`);
    records.push({ planned: fault, ...injected, recoveries });
  }
  return records;
}

/** One stderr line per interval: what the last interval's answers were. */
function progressReporter(samples: readonly Sample[], at: () => string): NodeJS.Timeout {
  let seen = 0;
  return setInterval(() => {
    const recent = samples.slice(seen);
    seen = samples.length;
    const tally = new Map<string, number>();
    for (const sample of recent) {
      const key = sample.status === 200 ? `${sample.decision}` : String(sample.status);
      tally.set(key, (tally.get(key) ?? 0) + 1);
    }
    const parts = [...tally].map(([key, value]) => `${key} ${value}`).join(", ");
    note(`${at()} ${recent.length} answers: ${parts || "none"}`);
  }, PROGRESS_EVERY_MS);
}

export async function run(emit: Emit): Promise<void> {
  const seconds = soakSeconds(process.env.SOAK_SECONDS);
  const schedule = faultSchedule(seconds);
  note(
    `soak: ${seconds} s at ${VALIDATE_PER_SECOND} validate + ${CHECK_PER_SECOND} check req/s; faults at ${schedule
      .map((fault) => `${fault.atSeconds} s (${fault.name}, ${fault.outageSeconds} s)`)
      .join(", ")}`,
  );
  const cut = schedule.find((fault) => fault.kind === "solana_rpc_cut");
  if (
    cut !== undefined &&
    cut.outageSeconds * 1000 <= DEFAULT_FRESHNESS_BOUND_SECONDS * 1000 + STALE_MARGIN_MS
  )
    note(
      `note: the ${cut.outageSeconds} s cut ends before Solana data must turn stale (${DEFAULT_FRESHNESS_BOUND_SECONDS} s bound + ${STALE_MARGIN_MS / 1000} s margin), so allows_while_chain_stale has nothing to catch; runs of 240 s or more cut for 70 s`,
    );
  const stack = await startSoakStack({ validatePerSecond: VALIDATE_PER_SECOND, log: note });
  const samples: Sample[] = [];
  const client = soakClient(stack.apiUrl, 2 * MAX_IN_FLIGHT_PER_ROUTE, REQUEST_TIMEOUT_MS);
  let serviceExit: string | undefined;
  let progress: NodeJS.Timeout | undefined;
  try {
    const ask = asker(client, stack.apiKeys, { keys: stack.publicKeys, partnerId: stack.partnerId }, samples);
    const loadStartedAt = Date.now();
    const at = () => `t+${Math.round((Date.now() - loadStartedAt) / 1000)}s`;
    const soak: Run = { stack, client, ask, loadStartedAt, loadEndsAt: loadStartedAt + seconds * 1000, at };
    void stack.service.exited.then((how) => {
      if (Date.now() >= soak.loadEndsAt) return; // stopped by the bench
      serviceExit = how;
      note(`${at()} THE SERVICE PROCESS EXITED (${how}); the rest of the run measures a dead service`);
    });
    note(`${at()} load started`);
    progress = progressReporter(samples, at);
    const loop = (route: "validate" | "check", ratePerSecond: number) => {
      const cases = requestCases(route, stack.chains);
      return steadyLoad({
        ratePerSecond,
        durationMs: seconds * 1000,
        maxInFlight: MAX_IN_FLIGHT_PER_ROUTE,
        send: (index) => ask(cases[index % cases.length] as (typeof cases)[number], false),
      });
    };
    const [faults, ...load] = await Promise.all([
      runFaults(soak, schedule),
      loop("validate", VALIDATE_PER_SECOND),
      loop("check", CHECK_PER_SECOND),
    ]);
    clearInterval(progress);
    note(`${at()} load finished`);
    const metrics = soakMetrics({ loadStartedAt, loadEndedAt: Date.now(), load, samples, faults });
    for (const [metric, value, unit] of metrics) emit(metric, value, unit);
    emit("service_exited", serviceExit === undefined ? 0 : 1, "bool");
    summarize(metrics);
  } finally {
    clearInterval(progress);
    await client.close();
    await stack.stop();
  }
}

/** The figures with a goal, each against it, for the human reading stderr. */
function summarize(metrics: readonly [string, number, string][]): void {
  const value = (name: string) => metrics.find(([metric]) => metric === name)?.[1];
  note("summary (goal in brackets):");
  for (const name of [
    "allows_failing_verification",
    "allows_while_database_down",
    "allows_while_chain_stale",
    "allows_for_reserved_identity",
    "answers_5xx_other",
  ])
    note(`  ${name} ${value(name)} [0]`);
  for (const [metric, seconds] of metrics.filter(([metric]) => /_recovery_seconds$/.test(metric)))
    note(
      `  ${metric} ${seconds === NOT_RECOVERED ? "NOT RECOVERED (-1)" : seconds} [two poll intervals + backoff]`,
    );
}
