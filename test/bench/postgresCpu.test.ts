// The benches' database CPU: counted per Postgres process, so a backend that exits during a sample
// (a pool closing an idle connection, an autovacuum worker) cannot make the figure fall, let alone go negative.
import { expect } from "chai";
import {
  postgresCpu,
  postgresCpuMicrosPerRequest,
  postgresCpuSecondsBetween,
} from "../../bench/support/postgresCpu";

describe("bench: PostgreSQL CPU between two readings", () => {
  it("adds each process's own growth, leaves out one that ended and counts one that started", () => {
    const before = new Map([
      ["10", 5],
      ["11", 40],
    ]);
    const after = new Map([
      ["10", 5.5],
      ["12", 0.25],
    ]);
    expect(postgresCpuSecondsBetween(before, after)).to.equal(0.75);
  });

  it("per request in µs, and nothing when either reading is missing", () => {
    const before = new Map([["10", 1]]);
    const after = new Map([["10", 1.5]]);
    expect(postgresCpuMicrosPerRequest(before, after, 1000)).to.equal(500);
    expect(postgresCpuMicrosPerRequest(undefined, after, 1000)).to.equal(undefined);
    expect(postgresCpuMicrosPerRequest(before, undefined, 1000)).to.equal(undefined);
  });

  it("reads the running server's processes from /proc", () => {
    const reading = postgresCpu();
    expect(reading, "/proc is readable on Linux").to.not.equal(undefined);
    for (const seconds of reading?.values() ?? []) expect(seconds).to.be.at.least(0);
  });
});
