// CPU used by the PostgreSQL server processes on this machine (Linux /proc), so a bench can say how much of a
// request's cost is the database's. Undefined where /proc is not readable.
import { readdirSync, readFileSync } from "node:fs";

const CLOCK_TICKS_PER_SECOND = 100;

/** CPU seconds (user + system) used so far by each PostgreSQL process, by pid. */
export type PostgresCpu = ReadonlyMap<string, number>;

export function postgresCpu(): PostgresCpu | undefined {
  let pids: string[];
  try {
    pids = readdirSync("/proc").filter((name) => /^\d+$/.test(name));
  } catch {
    return undefined;
  }
  const seconds = new Map<string, number>();
  for (const pid of pids) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    } catch {
      continue; // the process ended meanwhile
    }
    if (!stat.includes(" (postgres) ")) continue;
    // Fields after the command name: state is the first; utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    seconds.set(pid, (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND);
  }
  return seconds;
}

/**
 * CPU seconds the PostgreSQL processes used between two readings. Per process: one that ended in between
 * took its CPU with it (a sum over all processes could then go negative), and one that started in between
 * used all of its own CPU inside the interval.
 */
export function postgresCpuSecondsBetween(before: PostgresCpu, after: PostgresCpu): number {
  let seconds = 0;
  for (const [pid, used] of after) seconds += used - (before.get(pid) ?? 0);
  return seconds;
}

/** The PostgreSQL processes' CPU per request between two readings, in µs; undefined without both readings. */
export function postgresCpuMicrosPerRequest(
  before: PostgresCpu | undefined,
  after: PostgresCpu | undefined,
  requests: number,
): number | undefined {
  if (before === undefined || after === undefined) return undefined;
  return (postgresCpuSecondsBetween(before, after) * 1e6) / requests;
}
