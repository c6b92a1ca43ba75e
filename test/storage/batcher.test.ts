import { setTimeout as sleep } from "node:timers/promises";
import { expect } from "chai";
import { BatchLengthError, type BatchRun, batcher } from "../../storage/batcher";
import type { BatchFigures } from "../../telemetry/metrics";

/** A batch function that records the batches it was given and answers when the test releases them. */
function gatedRun() {
  const batches: number[][] = [];
  const releases: (() => void)[] = [];
  const run: BatchRun<number, string> = async (inputs) => {
    batches.push([...inputs]);
    await new Promise<void>((resolve) => releases.push(resolve));
    return inputs.map((input) => `answer ${input}`);
  };
  const releaseAll = () => {
    for (const release of releases.splice(0)) release();
  };
  return { run, batches, releaseAll };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe("api platform: batcher (concurrent calls share one batch)", () => {
  it("calls made in the same turn go out as one batch and each gets the output at its own index", async () => {
    const gated = gatedRun();
    const load = batcher(gated.run, { maxBatch: 100, maxInFlight: 2 });
    const answers = Promise.all([3, 1, 2].map(load));
    await turn();
    gated.releaseAll();
    expect(await answers).to.deep.equal(["answer 3", "answer 1", "answer 2"]);
    expect(gated.batches).to.deep.equal([[3, 1, 2]]);
  });

  it("while maxInFlight batches run, later calls wait and go together in the next batch", async () => {
    const gated = gatedRun();
    const load = batcher(gated.run, { maxBatch: 100, maxInFlight: 1 });
    const first = load(1);
    await turn();
    const later = [load(2), load(3)];
    await turn();
    const third = load(4);
    await turn();
    expect(gated.batches).to.deep.equal([[1]]);
    gated.releaseAll();
    await first;
    await turn();
    expect(gated.batches).to.deep.equal([[1], [2, 3, 4]]);
    gated.releaseAll();
    expect(await Promise.all([...later, third])).to.deep.equal(["answer 2", "answer 3", "answer 4"]);
  });

  it("reads a maxInFlight function at every flush (one batch at a time until it allows two)", async () => {
    const gated = gatedRun();
    let allowed = 1;
    const load = batcher(gated.run, { maxBatch: 1, maxInFlight: () => allowed });
    const answers = Promise.all([1, 2, 3].map(load));
    await turn();
    expect(gated.batches).to.deep.equal([[1]]);
    allowed = 2;
    gated.releaseAll();
    await turn();
    await turn();
    expect(gated.batches).to.deep.equal([[1], [2], [3]]);
    gated.releaseAll();
    expect(await answers).to.deep.equal(["answer 1", "answer 2", "answer 3"]);
  });

  it("splits a queue longer than maxBatch into several batches", async () => {
    const gated = gatedRun();
    const load = batcher(gated.run, { maxBatch: 2, maxInFlight: 3 });
    const answers = Promise.all([1, 2, 3, 4, 5].map(load));
    await turn();
    expect(gated.batches).to.deep.equal([[1, 2], [3, 4], [5]]);
    gated.releaseAll();
    expect(await answers).to.have.length(5);
  });

  it("a failed batch fails every call in it, and the next batch runs", async () => {
    let calls = 0;
    const load = batcher<number, number>(
      async (inputs) => {
        calls += 1;
        if (calls === 1) throw new Error("database gone");
        return inputs.map((input) => input * 10);
      },
      { maxBatch: 100, maxInFlight: 1 },
    );
    const failed = await Promise.allSettled([load(1), load(2)]);
    expect(failed.map((outcome) => outcome.status)).to.deep.equal(["rejected", "rejected"]);
    expect(await load(3)).to.equal(30);
  });

  it("an answer of the wrong length fails the batch instead of handing out someone else's output", async () => {
    const load = batcher<number, number>(async (inputs) => inputs.slice(1), {
      maxBatch: 100,
      maxInFlight: 1,
    });
    const outcomes = await Promise.allSettled([load(1), load(2)]);
    for (const outcome of outcomes) {
      expect(outcome.status).to.equal("rejected");
      expect((outcome as PromiseRejectedResult).reason).to.be.instanceOf(BatchLengthError);
    }
  });

  it("tells its observer each batch's size, how long its first call was held, its round trip and its outcome", async () => {
    const gated = gatedRun();
    const observed: BatchFigures[] = [];
    const load = batcher(gated.run, {
      maxBatch: 100,
      maxInFlight: 1,
      observe: (batch) => observed.push(batch),
    });
    const first = load(1);
    await turn();
    const held = [load(2), load(3)]; // wait for the batch in flight
    await sleep(30);
    gated.releaseAll();
    await first;
    await turn();
    await sleep(20);
    gated.releaseAll();
    await Promise.all(held);
    expect(observed.map((batch) => [batch.size, batch.failed])).to.deep.equal([
      [1, false],
      [2, false],
    ]);
    const [firstBatch, second] = observed as [BatchFigures, BatchFigures];
    expect(firstBatch.runMs).to.be.at.least(29); // released 30 ms after it was sent
    expect(second.heldMs).to.be.at.least(29); // called while the first batch ran
    expect(second.runMs).to.be.at.least(19);

    const failing = batcher<number, number>(
      async () => {
        throw new Error("database gone");
      },
      { maxBatch: 100, maxInFlight: 1, observe: (batch) => observed.push(batch) },
    );
    await Promise.allSettled([failing(1), failing(2), failing(3)]);
    expect(observed.slice(2).map((batch) => [batch.size, batch.failed])).to.deep.equal([[3, true]]);
  });
});
