// A bench's cases chosen by an environment variable (API_CASES, RESERVATIONS_CASES).
import { expect } from "chai";
import { chosenCases } from "../../bench/support/chosenCases";

const CASES = ["window", "prepare", "confirm"] as const;
const VARIABLE = "TEST_BENCH_CASES";

describe("bench: chosen cases", () => {
  afterEach(() => {
    delete process.env[VARIABLE];
  });

  it("runs every case when the variable is unset", () => {
    expect([...chosenCases(VARIABLE, CASES)]).to.deep.equal([...CASES]);
  });

  it("runs the named subset, spaces allowed", () => {
    process.env[VARIABLE] = "confirm, window";
    expect([...chosenCases(VARIABLE, CASES)].sort()).to.deep.equal(["confirm", "window"]);
  });

  it("refuses a case it does not have, naming the ones it has", () => {
    process.env[VARIABLE] = "window,windows";
    expect(() => chosenCases(VARIABLE, CASES)).to.throw(
      'TEST_BENCH_CASES: unknown case "windows" (window, prepare, confirm)',
    );
  });
});
