import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "chai";
import { openDatabase } from "../../storage/database";
import { PortInUseError } from "../../storage/portCheck";
import { freePort } from "../support/testDatabase";

describe("storage: embedded database", () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), "svc-embedded-"));
  });
  afterEach(() => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("keeps its data in the data folder across a restart", async () => {
    const source = { kind: "embedded" as const, dataDir, host: "127.0.0.1", port: await freePort() };
    const first = await openDatabase(source);
    await first.pool.query("CREATE TABLE kept (note text)");
    await first.pool.query("INSERT INTO kept VALUES ('survives')");
    await first.close();

    const second = await openDatabase(source);
    try {
      const { rows } = await second.pool.query("SELECT note FROM kept");
      expect(rows).to.deep.equal([{ note: "survives" }]);
      const migrations = await second.pool.query("SELECT count(*)::int AS n FROM schema_migrations");
      expect(migrations.rows[0].n).to.be.greaterThan(0);
    } finally {
      await second.close();
    }
  });

  it("serves several pg connections at once", async () => {
    const database = await openDatabase({
      kind: "embedded",
      dataDir,
      host: "127.0.0.1",
      port: await freePort(),
    });
    try {
      const answers = await Promise.all(
        Array.from({ length: 8 }, (_, i) => database.pool.query<{ n: number }>("SELECT $1::int AS n", [i])),
      );
      expect(answers.map((answer) => answer.rows[0]?.n)).to.deep.equal([0, 1, 2, 3, 4, 5, 6, 7]);
    } finally {
      await database.close();
    }
  });

  it("names the setting to change when its port is taken", async () => {
    const port = await freePort();
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(port, "127.0.0.1", resolve));
    try {
      const failure = await openDatabase({ kind: "embedded", dataDir, host: "127.0.0.1", port }).catch(
        (error: Error) => error,
      );
      expect(failure).to.be.instanceOf(PortInUseError);
      expect((failure as Error).message)
        .to.contain(String(port))
        .and.contain("EMBEDDED_DB_PORT");
    } finally {
      blocker.close();
    }
  });
});
