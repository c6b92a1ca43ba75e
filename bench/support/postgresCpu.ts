// CPU seconds used so far by the PostgreSQL server processes on this machine (Linux /proc), so a bench
// can say how much of a request's cost is the database's. Undefined where /proc is not readable.
import { readdirSync, readFileSync } from "node:fs";

const CLOCK_TICKS_PER_SECOND = 100;

export function postgresCpuSeconds(): number | undefined {
  let pids: string[];
  try {
    pids = readdirSync("/proc").filter((name) => /^\d+$/.test(name));
  } catch {
    return undefined;
  }
  let ticks = 0;
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
    ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks / CLOCK_TICKS_PER_SECOND;
}
