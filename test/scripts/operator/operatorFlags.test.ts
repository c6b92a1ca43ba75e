import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { expect } from "chai";
import { parseConfig } from "../../../config";
import {
  commandHelp,
  type OperatorCommand,
  type OperatorContext,
  UsageError,
} from "../../../scripts/operator/command";
import * as apiKeys from "../../../scripts/operator/commands/api-keys";
import * as disputes from "../../../scripts/operator/commands/disputes";
import * as embed from "../../../scripts/operator/commands/embed";
import * as guardian from "../../../scripts/operator/commands/guardian";
import * as keepers from "../../../scripts/operator/commands/keepers";
import * as launchpads from "../../../scripts/operator/commands/launchpads";
import * as partners from "../../../scripts/operator/commands/partners";
import * as signingKeys from "../../../scripts/operator/commands/signing-keys";
import { parseFlags } from "../../../scripts/operator/flags";

// Every command file, so a new one without declared flags fails here.
async function allCommands(): Promise<OperatorCommand[]> {
  const files = readdirSync(join(__dirname, "../../../scripts/operator/commands"));
  const modules = [apiKeys, disputes, embed, guardian, keepers, launchpads, partners, signingKeys];
  expect(files).to.have.length(modules.length);
  return modules.flatMap((module) => module.commands);
}

function usageErrorOf(action: () => unknown): string {
  try {
    action();
  } catch (error) {
    expect(error).to.be.instanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error("no usage error");
}

function cli(...args: string[]) {
  return spawnSync(process.execPath, ["--import", "tsx", "scripts/operator/index.ts", ...args], {
    encoding: "utf8",
    // Nothing listens here: a command that got past its flags would fail to connect, not exit 2.
    env: { ...process.env, DATABASE_URL: "postgres://nobody@127.0.0.1:1/none" },
  });
}

describe("operator CLI: strict flags, --help, --json", () => {
  const specs = {
    label: { value: "text", help: "a label" },
    "rate-limit": { value: "n", help: "a limit" },
    all: { help: "a switch" },
  };

  it("parses declared values, --name=value and switches", () => {
    const flags = parseFlags(["--label", "a b", "--rate-limit=50", "--all", "--json"], specs);
    expect([...flags]).to.deep.equal([
      ["label", "a b"],
      ["rate-limit", "50"],
      ["all", true],
      ["json", true],
    ]);
  });

  it("refuses a mistyped flag and lists the valid ones", () => {
    const message = usageErrorOf(() => parseFlags(["--rate-limt", "50"], specs));
    expect(message).to.equal(
      "Unknown option --rate-limt. Valid options: --label, --rate-limit, --all, --json, --help.",
    );
  });

  it("refuses a missing value, a value on a switch, a repeated flag and a bare argument", () => {
    expect(usageErrorOf(() => parseFlags(["--label"], specs))).to.contain("--label needs a value");
    expect(usageErrorOf(() => parseFlags(["--label", "--all"], specs))).to.contain("--label needs a value");
    expect(usageErrorOf(() => parseFlags(["--all=yes"], specs))).to.contain("--all takes no value");
    expect(usageErrorOf(() => parseFlags(["--all", "--all"], specs))).to.contain("given twice");
    expect(usageErrorOf(() => parseFlags(["label"], specs))).to.contain('Unexpected argument "label"');
  });

  it("every command declares its flags with help, and refuses an undeclared one before any work", async () => {
    const commands = await allCommands();
    expect(commands.length).to.be.greaterThan(30);
    const untouchable = {
      get pool(): never {
        throw new Error("touched the database");
      },
      config: parseConfig({}),
      masterKey: Buffer.alloc(32),
      out: () => {},
    } as unknown as OperatorContext;
    for (const command of commands) {
      for (const [name, spec] of Object.entries(command.flags)) {
        expect(spec.help, `${command.name} --${name}`).to.be.a("string").and.not.equal("");
        expect(commandHelp(command)).to.contain(`--${name}`);
      }
      for (const used of command.usage.matchAll(/--([a-z-]+)/g))
        expect(Object.keys({ ...command.flags, json: 1, help: 1 }), command.name).to.include(used[1]);
      let error: unknown;
      await command.run(["--no-such-flag"], untouchable).catch((caught: unknown) => {
        error = caught;
      });
      expect(error, command.name).to.be.instanceOf(UsageError);
    }
  });

  it("the CLI exits 2 on `api-keys:create --rate-limt 50` naming --rate-limit, and 0 on --help", function () {
    this.timeout(60_000);
    const typo = cli(
      "api-keys:create",
      "--label",
      "x",
      "--scopes",
      "launch:validate",
      "--rate-limt",
      "50",
      "--actor",
      "a",
      "--reason",
      "r",
    );
    expect(typo.status).to.equal(2);
    expect(typo.stderr).to.contain("Unknown option --rate-limt").and.contain("--rate-limit");
    const help = cli("disputes:decide", "--help");
    expect(help.status, help.stderr).to.equal(0);
    expect(help.stdout).to.contain("--outcome <upheld|rejected>").and.contain("--json");
  });
});
