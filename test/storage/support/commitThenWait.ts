// A process that serves the embedded database, lets one client turn synchronous_commit off as Ponder does,
// then commits rows from another client and prints each id once its COMMIT is answered. The test kills it.
import { Pool } from "pg";
import { startEmbeddedServer } from "../../../storage/embeddedServer";

async function main(): Promise<void> {
  const [dataDir, port] = process.argv.slice(2) as [string, string];
  const server = await startEmbeddedServer({
    dataDir,
    host: "127.0.0.1",
    port: Number(port),
    maxConnections: 4,
  });
  const ponderLike = new Pool({ connectionString: server.connectionString, max: 1 });
  const writer = new Pool({ connectionString: server.connectionString, max: 1 });
  await writer.query("CREATE TABLE acknowledged (id int PRIMARY KEY)");
  await ponderLike.query("SET synchronous_commit = off");
  for (let id = 1; ; id++) {
    await writer.query("INSERT INTO acknowledged VALUES ($1)", [id]);
    process.stdout.write(`${id}\n`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

void main();
