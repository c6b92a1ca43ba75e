// npm run verify:program: exit codes that CI relies on.
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { expect } from "chai";
import { skipWithoutClang } from "./support";

const ROOT = join(__dirname, "..", "..", "..");
const verify = (env: Record<string, string>) =>
  spawnSync(process.execPath, ["--import", "tsx", "scripts/sbf/verify-program.ts"], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    encoding: "utf8",
  });

describe("verify:program", () => {
  it("exits 3 with an install hint when clang-16 is missing", () => {
    const result = verify({ SBF_CLANG: "clang-16-not-installed" });
    expect(result.status).to.equal(3);
    expect(result.stderr).to.match(/apt-get install -y clang-16/);
  });

  it("rebuilds the committed bytes exactly (exit 0)", function () {
    skipWithoutClang(this);
    const result = verify({});
    expect(result.stderr).to.match(/verify:program ok/);
    expect(result.status).to.equal(0);
  });
});
