// Mocha root hooks, loaded through .mocharc.json. In parallel mode (.mocharc.json) Mocha runs a root hook's
// afterAll after each file of a worker process, so the worker's embedded database outlives the file and goes
// with the process (test/support/testDatabase.ts).
import { suiteLogFindings } from "./suiteLogs";
import { stopSharedEmbeddedServer } from "./testDatabase";

/** Set by Mocha in each worker process of a parallel run. */
const IN_PARALLEL_WORKER = process.env.MOCHA_WORKER_ID !== undefined;

export const mochaHooks = {
  async afterAll() {
    if (!IN_PARALLEL_WORKER) await stopSharedEmbeddedServer();
    // No secret the run handed out appears in any line the run's APIs logged (test/support/suiteLogs.ts).
    const findings = suiteLogFindings();
    if (findings.leaking > 0) {
      throw new Error(
        `${findings.leaking} of ${findings.lines} log lines of this run hold one of the ${findings.secrets} secrets it handed out; find them with the redaction tests (test/telemetry).`,
      );
    }
    if (findings.lines > 0 && !IN_PARALLEL_WORKER) {
      process.stdout.write(
        `  log redaction: ${findings.lines} log lines of this run checked against ${findings.secrets} secrets it handed out: none found\n`,
      );
    }
  },
};
