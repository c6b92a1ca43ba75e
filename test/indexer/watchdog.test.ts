import { expect } from "chai";
import { stallWatch } from "../../indexer/watchdog";

describe("indexer watchdog: stall detection", () => {
  it("counts a stall only while the head is ahead and the checkpoint has not moved for the stall time", () => {
    const watch = stallWatch(1000);
    expect(watch.observe(10n, 5n, 0)).to.equal(null);
    expect(watch.observe(12n, 5n, 999)).to.equal(null);
    expect(watch.observe(14n, 5n, 1000)).to.equal(1000);
    // The checkpoint moved: progress.
    expect(watch.observe(14n, 6n, 1500)).to.equal(null);
    expect(watch.observe(15n, 6n, 2400)).to.equal(null);
    expect(watch.observe(15n, 6n, 2500)).to.equal(1000);
  });

  it("an indexer caught up with a quiet chain is not stalled; restarts in a row wait twice as long each", () => {
    const watch = stallWatch(1000);
    expect(watch.observe(10n, 10n, 0)).to.equal(null);
    expect(watch.observe(10n, 10n, 5000)).to.equal(null);
    expect(watch.observe(11n, 10n, 5500)).to.equal(null);
    expect(watch.observe(12n, 10n, 6000)).to.equal(1000);
    watch.restarted(6000);
    expect(watch.observe(13n, 10n, 7999)).to.equal(null);
    expect(watch.observe(13n, 10n, 8000)).to.equal(2000);
    watch.restarted(8000);
    expect(watch.observe(13n, 10n, 11_999)).to.equal(null);
    expect(watch.observe(13n, 10n, 12_000)).to.equal(4000);
    expect(watch.awaitingProgress(), "restarted, not moved yet").to.equal(true);
    // Progress: back to the plain stall time.
    expect(watch.observe(14n, 11n, 12_500)).to.equal(null);
    expect(watch.awaitingProgress()).to.equal(false);
    expect(watch.observe(15n, 11n, 13_500)).to.equal(1000);
  });
});
