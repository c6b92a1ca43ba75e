// The soak's figures from what it recorded: every answer, and each fault's times and recoveries. Pure, so the
// rules are in one place: which allows break the fail-closed rule, which answers count against which fault.
import type { Sample } from "./judge";
import type { LoadResult } from "./load";
import type { Recoveries } from "./recovery";
import type { PlannedFault } from "./schedule";

/** A stretch in which any `allow` (for `chain`, or any chain) breaks the fail-closed rule. */
export interface UnsafeWindow {
  reason: "database_down" | "chain_stale";
  from: number;
  until: number;
  chain?: string;
}

export interface FaultRecord {
  planned: PlannedFault;
  startedAt: number;
  endedAt: number;
  unsafe: UnsafeWindow;
  recoveries: Recoveries;
}

export interface SoakRecord {
  loadStartedAt: number;
  loadEndedAt: number;
  load: LoadResult[];
  samples: readonly Sample[];
  faults: readonly FaultRecord[];
}

export type Metric = [metric: string, value: number, unit: string];

/** Recovery seconds where none was reached: the report stays numeric and the failure unmistakable. */
export const NOT_RECOVERED = -1;

const round1 = (value: number) => Math.round(value * 10) / 10;
const isAllow = (sample: Sample) => sample.status === 200 && sample.decision === "allow";
const count = (samples: readonly Sample[], test: (sample: Sample) => boolean) =>
  samples.reduce((total, sample) => total + (test(sample) ? 1 : 0), 0);

function statusClass(status: Sample["status"]): string {
  if (typeof status === "string") return status;
  if (status === 200 || status === 503 || status === 429) return String(status);
  if (status >= 500) return "5xx_other";
  if (status >= 400) return "4xx_other";
  return "other";
}

/** The whole request lies inside the window: the answer was made while the dependency was away. */
function insideWindow(sample: Sample, window: UnsafeWindow): boolean {
  return (
    sample.sentAt >= window.from &&
    sample.receivedAt <= window.until &&
    (window.chain === undefined || window.chain === sample.chain)
  );
}

function answerMetrics(samples: readonly Sample[]): Metric[] {
  const classes = ["200", "503", "429", "4xx_other", "5xx_other", "timeout", "no_answer", "other"];
  return classes.map(
    (name): Metric => [
      `answers_${name}`,
      count(samples, (sample) => statusClass(sample.status) === name),
      "requests",
    ],
  );
}

function safetyMetrics(record: SoakRecord): Metric[] {
  const { samples, faults } = record;
  const allows = samples.filter(isAllow);
  const validateAllows = allows.filter((sample) => sample.route === "validate");
  const unsafe = (reason: UnsafeWindow["reason"]) =>
    count(allows, (sample) =>
      faults.some((fault) => fault.unsafe.reason === reason && insideWindow(sample, fault.unsafe)),
    );
  return [
    [
      "allows_verified",
      count(validateAllows, (sample) => sample.verificationFailure === undefined),
      "requests",
    ],
    [
      "allows_failing_verification",
      count(validateAllows, (sample) => sample.verificationFailure !== undefined),
      "requests",
    ],
    ["allows_while_database_down", unsafe("database_down"), "requests"],
    ["allows_while_chain_stale", unsafe("chain_stale"), "requests"],
    ["allows_for_reserved_identity", count(allows, (sample) => sample.reservedForSomeoneElse), "requests"],
  ];
}

function faultMetrics(record: SoakRecord): Metric[] {
  const { samples, faults } = record;
  const metrics: Metric[] = [];
  const firstFault = faults[0]?.startedAt ?? record.loadEndedAt;
  metrics.push([
    "answers_503_before_faults",
    count(samples, (sample) => sample.sentAt < firstFault && sample.status === 503),
    "requests",
  ]);
  faults.forEach((fault, index) => {
    const name = fault.planned.name;
    const windowEnd = faults[index + 1]?.startedAt ?? record.loadEndedAt;
    const inWindow = samples.filter(
      (sample) => sample.sentAt >= fault.startedAt && sample.sentAt < windowEnd,
    );
    const times = [...fault.recoveries.values()];
    const recovered = times.every((seconds) => seconds !== undefined);
    metrics.push(
      [`${name}_outage_seconds`, round1((fault.endedAt - fault.startedAt) / 1000), "s"],
      [`${name}_answers_503`, count(inWindow, (sample) => sample.status === 503), "requests"],
      [`${name}_answers_timeout`, count(inWindow, (sample) => sample.status === "timeout"), "requests"],
      [`${name}_recovered`, recovered ? 1 : 0, "bool"],
      [`${name}_recovery_seconds`, recovered ? round1(Math.max(...(times as number[]))) : NOT_RECOVERED, "s"],
    );
    for (const [chain, seconds] of fault.recoveries)
      metrics.push([
        `${name}_recovery_seconds_${chain}`,
        seconds === undefined ? NOT_RECOVERED : round1(seconds),
        "s",
      ]);
  });
  return metrics;
}

export function soakMetrics(record: SoakRecord): Metric[] {
  const { samples, load } = record;
  return [
    ["run_seconds", round1((record.loadEndedAt - record.loadStartedAt) / 1000), "s"],
    ["requests_sent", samples.length, "requests"],
    ["validate_requests_sent", count(samples, (sample) => sample.route === "validate"), "requests"],
    ["check_requests_sent", count(samples, (sample) => sample.route === "check"), "requests"],
    ["probe_requests_sent", count(samples, (sample) => sample.probe), "requests"],
    [
      "requests_skipped_at_concurrency_limit",
      load.reduce((total, part) => total + part.skipped, 0),
      "requests",
    ],
    ...answerMetrics(samples),
    ...safetyMetrics(record),
    ...faultMetrics(record),
  ];
}
