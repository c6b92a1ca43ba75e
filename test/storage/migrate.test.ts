import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "chai";
import { migrate, readMigrations } from "../../storage/migrate";
import { createTestDatabase, type TestDatabase } from "../support/testDatabase";

function migrationsDir(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "svc-migrations-"));
  for (const [name, sql] of Object.entries(files)) writeFileSync(join(dir, name), sql);
  return dir;
}

const nextVersion = (migrations: { version: number }[]) => Math.max(...migrations.map((m) => m.version)) + 1;

describe("storage: migrations", () => {
  let db: TestDatabase;
  before(async () => {
    db = await createTestDatabase();
  });
  after(async () => {
    await db.close();
  });

  it("applied every shipped migration once, in order, when the database opened", async () => {
    const { rows } = await db.pool.query<{ version: number }>(
      "SELECT version FROM schema_migrations ORDER BY version",
    );
    expect(rows.map((row) => row.version)).to.deep.equal(
      readMigrations().map((migration) => migration.version),
    );
  });

  it("applies nothing on a second run", async () => {
    expect(await migrate(db.pool)).to.deep.equal([]);
  });

  it("applies only the new migration when one is added", async () => {
    const shipped = readMigrations();
    const extra = { version: nextVersion(shipped), name: "extra", sql: "CREATE TABLE extra_probe (id int)" };
    expect(await migrate(db.pool, [...shipped, extra])).to.deep.equal([extra.version]);
    await db.pool.query("SELECT id FROM extra_probe");
  });

  it("rolls back every pending migration when one fails", async () => {
    const shipped = readMigrations();
    const good = { version: nextVersion(shipped) + 1, name: "good", sql: "CREATE TABLE good_probe (id int)" };
    const bad = { version: nextVersion(shipped) + 2, name: "bad", sql: "CREATE TABLE broken (" };
    let failure: unknown;
    try {
      await migrate(db.pool, [...shipped, good, bad]);
    } catch (error) {
      failure = error;
    }
    expect(failure).to.be.instanceOf(Error);
    const { rows } = await db.pool.query("SELECT to_regclass('good_probe') AS table");
    expect(rows[0].table).to.equal(null);
  });

  it("refuses a badly named migration file with a message that shows the expected name", () => {
    const dir = migrationsDir({ "0001_ok.sql": "SELECT 1", "2_bad.sql": "SELECT 1" });
    expect(() => readMigrations(dir)).to.throw(/2_bad\.sql.*NNNN_description\.sql/);
  });

  it("refuses two migrations with the same number", () => {
    const dir = migrationsDir({ "0001_a.sql": "SELECT 1", "0001_b.sql": "SELECT 1" });
    expect(() => readMigrations(dir)).to.throw(/share the number 1/);
  });

  it("orders migrations by number, not by file name", () => {
    const dir = migrationsDir({ "0010_late.sql": "SELECT 10", "0002_early.sql": "SELECT 2" });
    expect(readMigrations(dir).map((migration) => migration.version)).to.deep.equal([2, 10]);
  });
});
