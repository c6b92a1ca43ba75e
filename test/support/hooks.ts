// Mocha root hooks, loaded through .mocharc.json.
import { suiteLogFindings } from "./suiteLogs";
import { stopSharedEmbeddedServer } from "./testDatabase";

export const mochaHooks = {
  async afterAll() {
    await stopSharedEmbeddedServer();
    // No secret the run handed out appears in any line the run's APIs logged (test/support/suiteLogs.ts).
    const findings = suiteLogFindings();
    if (findings.leaking > 0) {
      throw new Error(
        `${findings.leaking} of ${findings.lines} log lines of this run hold one of the ${findings.secrets} secrets it handed out; find them with the redaction tests (test/telemetry).`,
      );
    }
    if (findings.lines > 0) {
      process.stdout.write(
        `  log redaction: ${findings.lines} log lines of this run checked against ${findings.secrets} secrets it handed out: none found\n`,
      );
    }
  },
};
