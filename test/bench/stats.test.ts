// The benches' one definition of a percentile and a median (bench/support/stats.ts).
import { expect } from "chai";
import { median, percentile } from "../../bench/support/stats";

describe("bench: order statistics", () => {
  it("reads a percentile at the nearest rank at or below it, and the last value for 1", () => {
    const sorted = Array.from({ length: 200 }, (_, index) => index + 1);
    expect(percentile(sorted, 0.5)).to.equal(101);
    expect(percentile(sorted, 0.99)).to.equal(199);
    expect(percentile(sorted, 1)).to.equal(200);
    expect(percentile([7], 0.99)).to.equal(7);
    expect(percentile([], 0.5)).to.be.NaN;
  });

  it("takes the middle value of an odd count and the mean of the two middle ones of an even count, in any order", () => {
    expect(median([5, 1, 3])).to.equal(3);
    expect(median([4, 1, 3, 2])).to.equal(2.5);
    expect(median([0.9, 0.7])).to.be.closeTo(0.8, 1e-12);
    expect(median([])).to.be.NaN;
  });

  it("leaves the values it is given in their order", () => {
    const values = [3, 1, 2];
    median(values);
    expect(values).to.deep.equal([3, 1, 2]);
  });
});
