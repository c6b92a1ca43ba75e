// A worker job's pass is timed by outcome (worker_pass_duration_seconds), and a failed pass still fails.
import { expect } from "chai";
import { metricsRegistry } from "../../telemetry/metrics";
import { timedPass } from "../../worker/timedPass";
import { sampleValue } from "./support";

describe("telemetry: worker pass durations", () => {
  it("observes each pass by job and outcome and passes a failure on", async () => {
    const countOf = async (outcome: string) =>
      sampleValue(await metricsRegistry.metrics(), "worker_pass_duration_seconds_count", {
        job: "test_job",
        outcome,
      }) ?? 0;
    const [okBefore, failedBefore] = [await countOf("ok"), await countOf("failed")];
    await timedPass("test_job", async () => new Promise((resolve) => setTimeout(resolve, 20)))();
    let thrown: unknown;
    await timedPass("test_job", async () => {
      throw new Error("pass failed");
    })().catch((error: unknown) => {
      thrown = error;
    });
    expect((thrown as Error).message).to.equal("pass failed");
    expect((await countOf("ok")) - okBefore).to.equal(1);
    expect((await countOf("failed")) - failedBefore).to.equal(1);
    const sum = sampleValue(await metricsRegistry.metrics(), "worker_pass_duration_seconds_sum", {
      job: "test_job",
      outcome: "ok",
    });
    expect(sum).to.be.at.least(0.015);
  });
});
