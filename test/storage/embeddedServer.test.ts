import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { setTimeout as delay } from "node:timers/promises";
import { expect } from "chai";
import { Client, Pool, type Submittable } from "pg";
import { projectPath } from "../../config/projectRoot";
import { PortInUseError } from "../../net/ports";
import { openDatabase } from "../../storage/database";
import {
  type EmbeddedServer,
  EmbeddedServerFailedError,
  startEmbeddedServer,
} from "../../storage/embeddedServer";
import { withTransaction } from "../../storage/transaction";
import { freePort } from "../support/testDatabase";

// pg-copy-streams (what Ponder writes with) ships no types.
const { from: copyFrom } = require("pg-copy-streams") as {
  from(sql: string): Submittable & NodeJS.WritableStream;
};

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

  it("keeps a COPY FROM STDIN's turn while other connections query (Ponder's writes)", async function () {
    this.timeout(60_000);
    const database = await openDatabase({
      kind: "embedded",
      dataDir,
      host: "127.0.0.1",
      port: await freePort(),
    });
    try {
      await database.pool.query("CREATE TABLE copied (n int)");
      const copier = await database.pool.connect();
      const others = Array.from({ length: 4 }, async () => {
        for (let i = 0; i < 25; i += 1) await database.pool.query("SELECT $1::int AS n", [i]);
      });
      try {
        const stream = copier.query(copyFrom("COPY copied FROM STDIN"));
        const done = new Promise((resolve, reject) => {
          stream.on("finish", resolve);
          stream.on("error", reject);
        });
        // Rows in many chunks, with pauses, so the other connections' queries arrive in the middle.
        for (let chunk = 0; chunk < 20; chunk += 1) {
          stream.write(`${Array.from({ length: 50 }, (_, k) => chunk * 50 + k).join("\n")}\n`);
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
        stream.end();
        await done;
      } finally {
        copier.release();
      }
      await Promise.all(others);
      const { rows } = await database.pool.query("SELECT count(*)::int AS n FROM copied");
      expect(rows[0].n).to.equal(1000);
    } finally {
      await database.close();
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

  it("refuses to start with the reason its thread failed", async () => {
    const notAFolder = join(dataDir, "a-file");
    writeFileSync(notAFolder, "");
    const failure = await startEmbeddedServer({
      dataDir: notAFolder,
      host: "127.0.0.1",
      port: await freePort(),
      maxConnections: 4,
    }).catch((error: Error) => error);
    expect(failure).to.be.instanceOf(EmbeddedServerFailedError);
    expect((failure as Error).message)
      .to.contain("EEXIST")
      .and.contain(notAFolder);
  });
});

describe("storage: embedded database under concurrent extended-protocol queries", () => {
  let dataDir: string;
  let server: EmbeddedServer;
  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), "svc-embedded-"));
    server = await startEmbeddedServer({
      dataDir,
      host: "127.0.0.1",
      port: await freePort(),
      maxConnections: 32,
    });
  });
  after(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("gives every connection the answer to its own statement while others run transactions", async () => {
    const pool = new Pool({ connectionString: server.connectionString, max: 16 });
    try {
      await pool.query("CREATE TABLE writes (v int)");
      // A transaction's BEGIN (a simple query) destroys the session's unnamed statement, and a Parse from
      // another connection replaces it: without turn-keeping, reads fail or answer with others' rows.
      const work = Array.from({ length: 300 }, (_, i) =>
        i % 3 === 0
          ? withTransaction(pool, (client) => client.query("INSERT INTO writes VALUES ($1)", [i])).then(
              () => "written",
            )
          : pool
              .query<{ n: number }>(`SELECT $1::int + ${i * 1000} AS n`, [i])
              .then((result) => result.rows[0]?.n),
      );
      const answers = await Promise.all(work);
      expect(answers).to.deep.equal(
        Array.from({ length: 300 }, (_, i) => (i % 3 === 0 ? "written" : i + i * 1000)),
      );
      const { rows } = await pool.query<{ n: number }>("SELECT count(*)::int AS n FROM writes");
      expect(rows[0]?.n).to.equal(100);
    } finally {
      await pool.end();
    }
  });

  it("gives every connection statement names of its own, as Postgres does", async () => {
    // The service names its hot statements; every connection shares PGlite's one session, where the second
    // connection's Parse of the same name would fail ("already exists") or its Bind run the first's statement.
    const clients = Array.from(
      { length: 3 },
      () => new Client({ connectionString: server.connectionString }),
    );
    await Promise.all(clients.map((client) => client.connect()));
    try {
      const asked = async (client: Client, index: number) => {
        const { rows } = await client.query<{ n: number }>({
          name: "same.name",
          text: `SELECT $1::int + ${index * 100} AS n`,
          values: [index],
        });
        return rows[0]?.n;
      };
      for (let round = 0; round < 3; round += 1) {
        const answers = await Promise.all(clients.map((client, index) => asked(client, index)));
        expect(answers).to.deep.equal([0, 101, 202]);
      }
    } finally {
      await Promise.all(clients.map((client) => client.end()));
    }
  });

  it("answers while the thread that started it is busy: the database has a thread of its own", async () => {
    // A client in another process asks once this thread is blocked; on this thread, the answer would wait.
    const client = spawn(
      process.execPath,
      [
        "-e",
        `const { Client } = require("pg");
         const client = new Client({ connectionString: process.argv[1] });
         client.connect().then(async () => {
           console.log("connected");
           await new Promise((resolve) => setTimeout(resolve, 200));
           await client.query("SELECT 1");
           console.log("answered " + Date.now());
           await client.end();
         });`,
        server.connectionString,
      ],
      { cwd: projectPath(), stdio: ["ignore", "pipe", "inherit"] },
    );
    const lines = createInterface({ input: client.stdout as NodeJS.ReadableStream });
    const output: string[] = [];
    const ended = new Promise<void>((resolve) => client.once("exit", () => resolve()));
    await new Promise<void>((resolve) =>
      lines.on("line", (line) => {
        output.push(line);
        if (line === "connected") resolve();
      }),
    );
    const blockedUntil = Date.now() + 1_500;
    while (Date.now() < blockedUntil) {
      // Busy: this thread runs nothing else until the time is up.
    }
    await ended;
    const answeredAt = Number(output.find((line) => line.startsWith("answered "))?.slice("answered ".length));
    expect(answeredAt).to.be.below(blockedUntil - 500, output.join("\n"));
  });

  it("drops a connection's statements when it closes, and keeps the others'", async () => {
    const observer = new Client({ connectionString: server.connectionString });
    const leaving = new Client({ connectionString: server.connectionString });
    await Promise.all([observer.connect(), leaving.connect()]);
    let left = false;
    const prepared = async () => {
      const { rows } = await observer.query<{ name: string }>(
        "SELECT name FROM pg_prepared_statements WHERE name LIKE '%:dropped.%'",
      );
      return rows.map((row) => row.name.replace(/^c\d+:/, "")).sort();
    };
    try {
      await observer.query({ name: "dropped.stays", text: "SELECT 1" });
      await leaving.query({ name: "dropped.goes", text: "SELECT 2" });
      expect(await prepared()).to.deep.equal(["dropped.goes", "dropped.stays"]);
      await leaving.end();
      left = true;
      for (let wait = 0; wait < 50 && (await prepared()).length > 1; wait += 1) await delay(20);
      expect(await prepared()).to.deep.equal(["dropped.stays"]);
      const { rows } = await observer.query<{ n: number }>({ name: "dropped.stays", text: "SELECT 1" });
      expect(rows).to.have.length(1);
    } finally {
      await Promise.all([observer.end(), left ? undefined : leaving.end()]);
    }
  });
});

describe("storage: embedded database durability", () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), "svc-embedded-durable-"));
  });
  afterEach(() => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("keeps synchronous_commit on for every connection whatever one connection sets (Ponder sets it off)", async () => {
    const server = await startEmbeddedServer({
      dataDir,
      host: "127.0.0.1",
      port: await freePort(),
      maxConnections: 4,
    });
    const setter = new Pool({ connectionString: server.connectionString, max: 1 });
    const other = new Pool({ connectionString: server.connectionString, max: 1 });
    try {
      const setting = async () => (await other.query("SHOW synchronous_commit")).rows[0].synchronous_commit;
      await setter.query("SET synchronous_commit = off; SET idle_in_transaction_session_timeout = 3600000;");
      expect(await setting()).to.equal("on");
      await setter.query("SELECT set_config('synchronous_commit', $1, false)", ["off"]);
      expect(await setting()).to.equal("on");
      const client = await setter.connect();
      try {
        await client.query("BEGIN");
        await client.query("SET SYNCHRONOUS_COMMIT TO off");
        await client.query("COMMIT");
      } finally {
        client.release();
      }
      expect(await setting()).to.equal("on");
    } finally {
      await Promise.all([setter.end(), other.end()]);
      await server.stop();
    }
  });

  it("keeps every acknowledged commit when its process is killed, after a client set synchronous_commit off", async function () {
    this.timeout(60_000);
    const port = await freePort();
    // The child commits rows one by one, printing each id once its COMMIT was answered, and is killed at once.
    const child = spawn(
      process.execPath,
      ["--import", "tsx", join(__dirname, "support", "commitThenWait.ts"), dataDir, String(port)],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    const acknowledged: number[] = [];
    await new Promise<void>((resolve, reject) => {
      child.once("exit", (code) => reject(new Error(`the writer exited early (${code})`)));
      child.stdout?.on("data", (chunk: Buffer) => {
        for (const line of chunk.toString().split("\n").filter(Boolean)) acknowledged.push(Number(line));
        if (acknowledged.length >= 20) {
          child.removeAllListeners("exit");
          child.kill("SIGKILL");
          child.once("exit", () => resolve());
        }
      });
    });
    const reopened = await openDatabase({
      kind: "embedded",
      dataDir,
      host: "127.0.0.1",
      port: await freePort(),
    });
    try {
      const { rows } = await reopened.pool.query("SELECT id FROM acknowledged");
      const kept = new Set(rows.map((row) => row.id as number));
      expect(acknowledged.filter((id) => !kept.has(id))).to.deep.equal([]);
    } finally {
      await reopened.close();
    }
  });
});
