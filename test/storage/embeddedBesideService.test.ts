// The embedded database while a service runs on it: the operator CLI, run as its own process with the same
// DATA_DIR, works through the running server (PGlite must never be opened twice); a second service on that
// DATA_DIR refuses and names the running one; a record left by a dead process does not block a start.
import { execFile, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { expect } from "chai";
import { parseConfig } from "../../config";
import { type Database, openDatabase } from "../../storage/database";
import { EmbeddedServerRunningError } from "../../storage/embeddedServerRecord";
import { freePort } from "../support/testDatabase";

const ROOT = resolve(__dirname, "../..");
const RECORD_FILE = "embedded-server.json";

/** The embedded source `npm start` opens for this DATA_DIR and port. */
function embeddedSourceOf(dataDir: string, port: number) {
  const { database } = parseConfig({ DATA_DIR: dataDir, EMBEDDED_DB_PORT: String(port) });
  if (database.kind !== "embedded") throw new Error("expected the embedded default");
  return database;
}

/** Runs the operator CLI as `npm run operator` does, configured only by DATA_DIR and EMBEDDED_DB_PORT. */
async function runOperator(dataDir: string, port: number, args: string[]): Promise<string> {
  const { DATABASE_URL: _unset, ...env } = process.env;
  const { stdout } = await promisify(execFile)(
    join(ROOT, "node_modules/.bin/tsx"),
    ["scripts/operator/index.ts", ...args],
    { cwd: ROOT, env: { ...env, DATA_DIR: dataDir, EMBEDDED_DB_PORT: String(port) } },
  );
  return stdout;
}

function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", ""]);
  return child.pid as number;
}

describe("storage: embedded database beside a running service", () => {
  let dataDir: string;
  let service: Database | undefined;

  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), "svc-embedded-shared-"));
  });
  afterEach(async () => {
    await service?.close();
    service = undefined;
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("the operator CLI works through the running server, and its change is visible to the service", async () => {
    const port = await freePort();
    service = await openDatabase(embeddedSourceOf(dataDir, port));
    const stdout = await runOperator(dataDir, port, [
      "api-keys:create",
      "--label",
      "beside the service",
      "--scopes",
      "launch:validate",
      "--actor",
      "ops-test",
      "--reason",
      "CLI while the service runs",
    ]);
    const keyId = /^keyId\s+(\S+)/m.exec(stdout)?.[1];
    expect(keyId, stdout).to.be.a("string");
    const { rows } = await service.pool.query("SELECT label FROM api_keys WHERE key_id = $1", [keyId]);
    expect(rows).to.deep.equal([{ label: "beside the service" }]);
    // The service's server is still the one serving the files.
    expect((await service.pool.query("SELECT 1 AS one")).rows[0].one).to.equal(1);
  });

  it("a second service on the same DATA_DIR refuses and names the running one", async () => {
    const port = await freePort();
    service = await openDatabase(embeddedSourceOf(dataDir, port));
    for (const secondPort of [port, await freePort()]) {
      const failure = await openDatabase(embeddedSourceOf(dataDir, secondPort)).catch(
        (error: Error) => error,
      );
      expect(failure).to.be.instanceOf(EmbeddedServerRunningError);
      expect((failure as Error).message)
        .to.contain(`pid ${process.pid}`)
        .and.contain(`127.0.0.1:${port}`);
    }
  });

  it("a record left by a dead process, or naming an address nobody serves, does not prevent starting", async () => {
    const source = embeddedSourceOf(dataDir, await freePort());
    const record = join(source.dataDir, RECORD_FILE);
    await (await openDatabase(source)).close(); // the files exist, as after a crash
    const stale = [
      { pid: deadPid(), host: "127.0.0.1", port: source.port },
      { pid: process.pid, host: "127.0.0.1", port: await freePort() },
    ];
    for (const { pid, host, port } of stale) {
      writeFileSync(record, JSON.stringify({ pid, host, port, startedAt: new Date(0).toISOString() }));
      const database = await openDatabase(source);
      expect((await database.pool.query("SELECT 1 AS one")).rows[0].one).to.equal(1);
      await database.close();
      expect(existsSync(record), "record removed on a clean stop").to.equal(false);
    }
  });
});
