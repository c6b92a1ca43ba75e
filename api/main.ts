// `npm run api`: the API alone, as a production role that runs as any number of replicas behind a load balancer.
// Replicas share nothing but Postgres (rate windows, idempotency, decisions, the outbox), so the role needs
// DATABASE_URL; the indexers and the worker run as their own roles. Reads the typed configuration
// (DATABASE_URL, MASTER_KEY, DEPLOYMENT_MANIFEST, HOST, PORT, the host lists) and the manifest once at start.
import { registryCatalogue } from "../chains/catalogue";
import { readManifest } from "../config/manifest";
import { resolveMasterKey } from "../config/masterKey";
import { roleConfig, startRole, stopOnSignal } from "../config/role";
import { openDatabase } from "../storage/database";
import { serveApi } from "./serve";

const ROLE = "api";
const log = (line: string) => console.error(`[${ROLE}] ${line}`);

startRole(ROLE, async () => {
  const { config, manifestPath } = roleConfig(ROLE, process.env);
  const manifest = readManifest(manifestPath);
  const masterKey = resolveMasterKey(config.masterKey, config.dataDir);
  // Opening migrates under an advisory lock, so replicas started together migrate once.
  const database = await openDatabase(config.database);
  const server = await serveApi({
    config,
    pool: database.pool,
    manifest,
    registries: registryCatalogue(manifest),
    masterKey,
    log,
  });
  log(
    `listening on ${server.url} (chains: ${[...manifest.evm, ...manifest.solana].map((entry) => entry.chain).join(", ") || "none"})`,
  );
  stopOnSignal(
    async () => {
      await server.close(config.shutdownGraceMs);
      await database.close();
    },
    config.shutdownGraceMs,
    log,
  );
});
