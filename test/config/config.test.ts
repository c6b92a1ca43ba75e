import { mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { expect } from "chai";
import { ConfigError, parseConfig, SETTING_DOCS } from "../../config";
import { resolveMasterKey } from "../../config/masterKey";
import { roleConfig } from "../../config/role";
import { settingsSchema } from "../../config/settings";

const MASTER_KEY = Buffer.alloc(32, 7).toString("base64");

function problemsOf(env: Record<string, string>): string[] {
  try {
    parseConfig(env);
  } catch (error) {
    expect(error).to.be.instanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
  throw new Error("expected the configuration to be refused");
}

describe("config", () => {
  it("defaults to the embedded database under ./data and the local hosts", () => {
    const config = parseConfig({});
    expect(config.database).to.deep.equal({
      kind: "embedded",
      dataDir: resolve("data", "pglite"),
      host: "127.0.0.1",
      port: 54329,
    });
    expect(config.api).to.deep.equal({ host: "127.0.0.1", port: 8787 });
    expect(config.hosts.sandbox).to.deep.equal(["sandbox.localhost:8787"]);
  });

  it("selects Postgres when DATABASE_URL is set", () => {
    const config = parseConfig({ DATABASE_URL: "postgres://db.internal:5432/svc", MASTER_KEY });
    expect(config.database).to.deep.equal({ kind: "postgres", url: "postgres://db.internal:5432/svc" });
    expect(config.masterKey).to.equal(MASTER_KEY);
  });

  it("leases webhook deliveries for 60 s unless WEBHOOK_LEASE_MS says otherwise, never under 1 s", () => {
    expect(parseConfig({}).webhooks.leaseMs).to.equal(60_000);
    expect(parseConfig({ WEBHOOK_LEASE_MS: "2000" }).webhooks.leaseMs).to.equal(2000);
    expect(problemsOf({ WEBHOOK_LEASE_MS: "500" }).join()).to.match(/WEBHOOK_LEASE_MS/);
  });

  it("treats an empty variable as unset", () => {
    expect(parseConfig({ DATABASE_URL: "", PORT: "" }).database.kind).to.equal("embedded");
  });

  it("names every bad setting at once", () => {
    const problems = problemsOf({ PORT: "eighty", DATABASE_URL: "mysql://x", SOLANA_COMMITMENT: "loud" });
    expect(problems.join("\n"))
      .to.match(/^PORT /m)
      .and.match(/^DATABASE_URL .*postgres:\/\//m)
      .and.match(/^SOLANA_COMMITMENT /m);
  });

  it("validates the indexers' settings, naming each bad one", () => {
    const problems = problemsOf({
      SOLANA_POLL_INTERVAL_MS: "fast",
      EVM_POLLING_INTERVAL_MS: "10",
      PONDER_PORT: "70000",
      EVM_VIEWS_SCHEMA: "views; DROP TABLE x",
      SERVICE_SCHEMA: "Public",
    });
    expect(problems.join("\n"))
      .to.match(/^SOLANA_POLL_INTERVAL_MS /m)
      .and.match(/^EVM_POLLING_INTERVAL_MS /m)
      .and.match(/^PONDER_PORT /m)
      .and.match(/^EVM_VIEWS_SCHEMA .*schema name/m)
      .and.match(/^SERVICE_SCHEMA .*schema name/m);
    expect(parseConfig({}).indexers).to.deep.include({
      solanaPollIntervalMs: 1000,
      evmViewsSchema: "evm_mirror",
      serviceSchema: "public",
    });
  });

  it("requires MASTER_KEY with a shared database and says how to make one", () => {
    const [problem] = problemsOf({ DATABASE_URL: "postgres://db/svc" });
    expect(problem).to.contain("MASTER_KEY").and.contain("openssl rand -base64 32");
  });

  it("refuses a master key that is not 32 bytes", () => {
    expect(problemsOf({ MASTER_KEY: "c2hvcnQ=" }).join()).to.match(/MASTER_KEY .*32 random bytes/);
  });

  it("parses host lists and refuses a host claimed by two environments", () => {
    const config = parseConfig({ SANDBOX_HOSTS: " Sandbox.Example.com , sbx.example.com:8443" });
    expect(config.hosts.sandbox).to.deep.equal(["sandbox.example.com", "sbx.example.com:8443"]);
    expect(config.warnings).to.deep.equal([]);
    expect(
      problemsOf({ PRODUCTION_HOSTS: "api.example.com", BASE_HOSTS: "api.example.com" }).join(),
    ).to.contain("api.example.com");
    expect(problemsOf({ BASE_HOSTS: "https://api.example.com" }).join()).to.match(
      /BASE_HOSTS .*host\[:port\]/,
    );
  });

  it("still reads a renamed host list under its old name for one release, with a warning naming the new one", () => {
    const old = parseConfig({ SANDBOX_URLS: "sbx.example.com", BASE_URLS: "api.example.com" });
    expect(old.hosts.sandbox).to.deep.equal(["sbx.example.com"]);
    expect(old.hosts.base).to.deep.equal(["api.example.com"]);
    expect(old.warnings).to.have.length(2);
    expect(old.warnings.join(" ")).to.match(
      /SANDBOX_URLS is renamed SANDBOX_HOSTS: set SANDBOX_HOSTS instead/,
    );
    // Both set: the new name wins, and the old one is named as ignored.
    const both = parseConfig({ PRODUCTION_URLS: "old.example.com", PRODUCTION_HOSTS: "new.example.com" });
    expect(both.hosts.production).to.deep.equal(["new.example.com"]);
    expect(both.warnings.join()).to.match(/PRODUCTION_URLS is ignored: PRODUCTION_HOSTS is set/);
    // An old name's bad value is reported under the new name it is read as.
    expect(problemsOf({ BASE_URLS: "https://api.example.com" }).join()).to.match(
      /BASE_HOSTS .*host\[:port\]/,
    );
  });

  it("still reads the service's schema as IDENTITY_MIRROR_SCHEMA for one release, with a warning naming SERVICE_SCHEMA", () => {
    const old = parseConfig({ IDENTITY_MIRROR_SCHEMA: "tenant_a" });
    expect(old.indexers.serviceSchema).to.equal("tenant_a");
    expect(old.warnings).to.deep.equal([
      "IDENTITY_MIRROR_SCHEMA is renamed SERVICE_SCHEMA: set SERVICE_SCHEMA instead (IDENTITY_MIRROR_SCHEMA is read until the next release).",
    ]);
    const both = parseConfig({ IDENTITY_MIRROR_SCHEMA: "tenant_a", SERVICE_SCHEMA: "tenant_b" });
    expect(both.indexers.serviceSchema).to.equal("tenant_b");
    expect(both.warnings.join()).to.match(/IDENTITY_MIRROR_SCHEMA is ignored: SERVICE_SCHEMA is set/);
    expect(problemsOf({ IDENTITY_MIRROR_SCHEMA: "Public" }).join()).to.match(/^SERVICE_SCHEMA .*schema name/);
  });

  it("documents every setting it reads", () => {
    expect(Object.keys(SETTING_DOCS).sort()).to.deep.equal(Object.keys(settingsSchema.shape).sort());
  });

  it("README's configuration table lists exactly the settings", () => {
    const readme = readFileSync(join(__dirname, "..", "..", "README.md"), "utf8");
    const section = readme.slice(
      readme.indexOf("## Configuration"),
      readme.indexOf("\n## ", readme.indexOf("## Configuration") + 1),
    );
    const listed = [...section.matchAll(/^\| `([A-Z_]+)`/gm)].map((match) => match[1]);
    expect(listed.sort()).to.deep.equal(Object.keys(SETTING_DOCS).sort());
  });
});

describe("config: a role run alone", () => {
  const POSTGRES = "postgres://db.internal:5432/svc";

  it("needs DATABASE_URL, and says why", () => {
    expect(() => roleConfig("indexer:solana", {}, { usesMasterKey: false }))
      .to.throw(ConfigError)
      .with.property("message")
      .that.match(/DATABASE_URL is required: indexer:solana runs alone only against Postgres/);
  });

  it("runs an indexer without MASTER_KEY (it never decrypts), the worker not", () => {
    expect(
      roleConfig("indexer:evm", { DATABASE_URL: POSTGRES }, { usesMasterKey: false }).databaseUrl,
    ).to.equal(POSTGRES);
    expect(() => roleConfig("worker", { DATABASE_URL: POSTGRES })).to.throw(ConfigError, /MASTER_KEY/);
  });

  it("resolves the manifest: DEPLOYMENT_MANIFEST, else the local one under DATA_DIR", () => {
    const env = { DATABASE_URL: POSTGRES, MASTER_KEY };
    expect(roleConfig("worker", { ...env, DATA_DIR: "/srv/identity" }).manifestPath).to.equal(
      "/srv/identity/deployments/local.json",
    );
    expect(
      roleConfig("worker", { ...env, DEPLOYMENT_MANIFEST: "/etc/identity/manifest.json" }).manifestPath,
    ).to.equal("/etc/identity/manifest.json");
  });
});

describe("config: master key", () => {
  it("generates a key once into the data folder, readable only by its owner, and reuses it", () => {
    const dataDir = mkdtempSync(join(tmpdir(), "svc-master-"));
    const first = resolveMasterKey(undefined, dataDir);
    expect(first).to.have.length(32);
    expect(statSync(join(dataDir, "master.key")).mode & 0o777).to.equal(0o600);
    expect(resolveMasterKey(undefined, dataDir).equals(first)).to.equal(true);
  });

  it("prefers the configured key", () => {
    const dataDir = mkdtempSync(join(tmpdir(), "svc-master-"));
    expect(resolveMasterKey(MASTER_KEY, dataDir).equals(Buffer.alloc(32, 7))).to.equal(true);
  });

  it("refuses a damaged key file with a message that says what to do", () => {
    const dataDir = mkdtempSync(join(tmpdir(), "svc-master-"));
    writeFileSync(join(dataDir, "master.key"), "dG9vIHNob3J0");
    expect(() => resolveMasterKey(undefined, dataDir)).to.throw(/Delete it .* or set MASTER_KEY/);
  });
});
