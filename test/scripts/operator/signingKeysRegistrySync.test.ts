// The signing-keys commands keep the registries' decision signer sets in step with the key ring, on real chains:
// the localnet's Hardhat node and litesvm-backed Solana RPC with both registries deployed twice (production,
// sandbox), the registries' own owner/admin wallets (the local defaults), a migrated test database. The windows
// are read straight from the chains (the EVM view, the Solana config's raw bytes), not through the sync's code.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Connection, Keypair, PublicKey, SYSVAR_CLOCK_PUBKEY } from "@solana/web3.js";
import { expect } from "chai";
import { type Address, createPublicClient, http, type PublicClient } from "viem";
import { parseConfig } from "../../../config";
import type { EvmManifestEntry, SolanaManifestEntry } from "../../../config/manifest";
import { identityRegistryAbi } from "../../../contracts/abi/identityRegistry";
import type { Environment } from "../../../core/environment";
import { type Localnet, startLocalnet } from "../../../scripts/localnet";
import type { OperatorContext } from "../../../scripts/operator/command";
import { commands } from "../../../scripts/operator/commands/signing-keys";
import {
  KEY_OVERLAP_SECONDS,
  listSigningKeys,
  type StoredSigningKey,
} from "../../../services/signing/signingKeyStore";
import { createTestDatabase, type TestDatabase } from "../../support/testDatabase";
import { letWebsocketIdle } from "../localnet/rpcClient";
import { commandLookup } from "./support";

const UINT64_MAX = 2n ** 64n - 1n;
const I64_MAX = 2n ** 63n - 1n;
const OWNER_KEY_VARIABLE = "EVM_REGISTRY_OWNER_PRIVATE_KEY";
const ADMIN_KEYPAIR_VARIABLE = "SOLANA_REGISTRY_ADMIN_KEYPAIR";
/** Layout of the program's config (programs/identity_registry/src/layout.h). */
const CONFIG_DECISION_SIGNERS = 252;
const DECISION_SIGNER_SIZE = 48;
const DECISION_SIGNER_COUNT = 4;

interface Window {
  validFrom: bigint;
  validUntil: bigint;
}

const seconds = (date: Date) => BigInt(Math.floor(date.getTime() / 1000));
const base58Of = (key: StoredSigningKey) =>
  new PublicKey(Buffer.from(key.publicKeyBase64, "base64")).toBase58();

const command = commandLookup(commands);

describe("operator CLI: signing-keys commands keep the registries' decision signers in step", function () {
  this.timeout(180_000);
  let localnet: Localnet;
  let db: TestDatabase;
  let dir: string;
  let lines: string[];
  let context: OperatorContext;
  let evmClient: PublicClient;
  let connection: Connection;
  let evm: EvmManifestEntry;
  let solana: SolanaManifestEntry;
  const credentialsBefore = {
    [OWNER_KEY_VARIABLE]: process.env[OWNER_KEY_VARIABLE],
    [ADMIN_KEYPAIR_VARIABLE]: process.env[ADMIN_KEYPAIR_VARIABLE],
  };
  /** The local defaults (Hardhat's and the localnet's deployer) unless a test names other credentials. */
  function useCredentials(credentials: Record<string, string | undefined>) {
    for (const [name, value] of Object.entries(credentials)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }

  before(async () => {
    useCredentials({ [OWNER_KEY_VARIABLE]: undefined, [ADMIN_KEYPAIR_VARIABLE]: undefined });
    dir = mkdtempSync(join(tmpdir(), "signing-keys-sync-"));
    const manifestPath = join(dir, "manifest.json");
    localnet = await startLocalnet({
      evmPort: 0,
      solanaPort: 0,
      slotMs: 100,
      manifestPath,
      priceRefreshMs: 3_600_000,
    });
    evm = localnet.manifest.evm[0] as EvmManifestEntry;
    solana = localnet.manifest.solana[0] as SolanaManifestEntry;
    evmClient = createPublicClient({ transport: http(evm.rpcUrl) });
    connection = new Connection(solana.rpcUrl, "confirmed");
    db = await createTestDatabase();
    context = {
      pool: db.pool,
      config: parseConfig({ DEPLOYMENT_MANIFEST: manifestPath }),
      masterKey: randomBytes(32),
      out: (line) => lines.push(line),
    };
  });
  beforeEach(() => {
    lines = [];
  });
  after(async () => {
    useCredentials(credentialsBefore);
    await db?.close();
    await letWebsocketIdle();
    await localnet?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const run = (name: string, ...args: string[]) =>
    command(name).run([...args, "--actor", "ops-alice", "--reason", "test"], context);

  async function keysOf(environment: Environment): Promise<StoredSigningKey[]> {
    return (await listSigningKeys(db.pool)).filter((key) => key.environment === environment);
  }
  const keyOf = async (kid: string) =>
    (await listSigningKeys(db.pool)).find((key) => key.kid === kid) as StoredSigningKey;

  const evmRegistry = (environment: Environment) =>
    (environment === "production" ? evm.registry : evm.sandbox?.registry) as Address;
  const solanaConfig = (environment: Environment) =>
    new PublicKey((environment === "production" ? solana : solana.sandbox)?.configAccount as string);

  async function evmWindow(environment: Environment, signer: Address): Promise<Window> {
    const [validFrom, validUntil] = await evmClient.readContract({
      address: evmRegistry(environment),
      abi: identityRegistryAbi,
      functionName: "decisionSignerWindow",
      args: [signer],
    });
    return { validFrom, validUntil };
  }
  const evmNow = async () => (await evmClient.getBlock()).timestamp;

  /** The config's entries by base58 key, decoded from the raw account bytes. */
  async function solanaWindows(environment: Environment): Promise<Map<string, Window>> {
    const account = await connection.getAccountInfo(solanaConfig(environment));
    if (account === null) throw new Error("no registry config");
    const data = account.data;
    const entries = new Map<string, Window>();
    for (let index = 0; index < DECISION_SIGNER_COUNT; index += 1) {
      const offset = CONFIG_DECISION_SIGNERS + index * DECISION_SIGNER_SIZE;
      const signer = new PublicKey(data.subarray(offset, offset + 32)).toBase58();
      entries.set(signer, {
        validFrom: data.readBigInt64LE(offset + 32),
        validUntil: data.readBigInt64LE(offset + 40),
      });
    }
    return entries;
  }
  const solanaNow = async () => {
    const clock = await connection.getAccountInfo(SYSVAR_CLOCK_PUBKEY);
    if (clock === null) throw new Error("no Clock sysvar");
    return clock.data.readBigInt64LE(32);
  };

  async function registryAudit(): Promise<
    { action: string; subject: string; details: Record<string, unknown> }[]
  > {
    const { rows } = await db.pool.query(
      "SELECT action, subject, actor, details FROM audit_log WHERE action LIKE 'signing_key.registry_signer_%' ORDER BY id",
    );
    return rows;
  }

  /** Whether both registries of `environment` trust `key` with exactly `window` (the open end in each chain's maximum). */
  async function expectTrusted(environment: Environment, key: StoredSigningKey, validUntil: bigint | "open") {
    const validFrom = seconds(key.createdAt);
    expect(await evmWindow(environment, key.evmAddress as Address), `${key.kid} on EVM`).to.deep.equal({
      validFrom,
      validUntil: validUntil === "open" ? UINT64_MAX : validUntil,
    });
    expect((await solanaWindows(environment)).get(base58Of(key)), `${key.kid} on Solana`).to.deep.equal({
      validFrom,
      validUntil: validUntil === "open" ? I64_MAX : validUntil,
    });
  }

  /** Whether neither registry of `environment` trusts `key` now (an ended window, or no entry). */
  async function expectNotTrusted(
    environment: Environment,
    key: { evmAddress?: string; publicKeyBase64: string },
  ) {
    const evmEntry = await evmWindow(environment, key.evmAddress as Address);
    expect(evmEntry.validUntil <= (await evmNow()), "EVM window ended").to.equal(true);
    const solanaEntry = (await solanaWindows(environment)).get(
      new PublicKey(Buffer.from(key.publicKeyBase64, "base64")).toBase58(),
    );
    expect(
      solanaEntry === undefined || solanaEntry.validUntil <= (await solanaNow()),
      "Solana window ended",
    ).to.equal(true);
  }

  it("ensure: creates both environments' keys and every registry trusts its environment's active key", async () => {
    await run("signing-keys:ensure");
    for (const environment of ["sandbox", "production"] as const) {
      const [active] = await keysOf(environment);
      await expectTrusted(environment, active as StoredSigningKey, "open");
    }
    const production = (await keysOf("production"))[0] as StoredSigningKey;
    const sandbox = (await keysOf("sandbox"))[0] as StoredSigningKey;
    // Never another environment's key.
    expect((await evmWindow("sandbox", production.evmAddress as Address)).validUntil).to.equal(0n);
    expect((await solanaWindows("production")).has(base58Of(sandbox))).to.equal(false);
    expect(lines.filter((line) => line.includes(": set "))).to.have.length(4);
    lines = [];
    await command("signing-keys:list").run([], context);
    expect(lines.find((line) => line.includes(production.kid))).to.contain(`evm ${production.evmAddress}`);
  });

  it("rotate: the new key is trusted from its creation, the old one until retiringAt + overlap; the sandbox untouched", async () => {
    const sandboxBefore = await solanaWindows("sandbox");
    await run("signing-keys:rotate", "--environment", "production");
    const keys = await keysOf("production");
    const active = keys.find((key) => key.status === "active") as StoredSigningKey;
    const retiring = keys.find((key) => key.status === "retiring") as StoredSigningKey;
    const overlapEnd = seconds(retiring.retiringAt as Date) + BigInt(KEY_OVERLAP_SECONDS);
    await expectTrusted("production", active, "open");
    await expectTrusted("production", retiring, overlapEnd);
    const trusts = (signer: Address, at: bigint) =>
      evmClient.readContract({
        address: evmRegistry("production"),
        abi: identityRegistryAbi,
        functionName: "isDecisionSigner",
        args: [signer, at],
      });
    const now = await evmNow();
    expect(await trusts(active.evmAddress as Address, now)).to.equal(true);
    expect(await trusts(retiring.evmAddress as Address, overlapEnd - 1n)).to.equal(true);
    expect(await trusts(retiring.evmAddress as Address, overlapEnd)).to.equal(false);
    expect(await solanaWindows("sandbox")).to.deep.equal(sandboxBefore);
  });

  it("sync is idempotent: a second run over registries in step sends nothing and audits nothing", async () => {
    const audited = (await registryAudit()).length;
    await run("signing-keys:sync", "--json");
    const { registries: reports } = JSON.parse(lines[0] as string) as {
      registries: { environment: string; ok: boolean; registries: { changes: unknown[]; error: null }[] }[];
    };
    expect(reports.map((report) => [report.environment, report.ok])).to.deep.equal([
      ["sandbox", true],
      ["production", true],
    ]);
    for (const report of reports) {
      expect(report.registries.map(({ changes, error }) => ({ changes, error }))).to.deep.equal([
        { changes: [], error: null },
        { changes: [], error: null },
      ]);
    }
    expect((await registryAudit()).length).to.equal(audited);
  });

  it("revoke: the key's window ends on both chains at once, its replacement is trusted; the output warns until then", async () => {
    const active = (await keysOf("production")).find((key) => key.status === "active") as StoredSigningKey;
    await run("signing-keys:revoke", "--kid", active.kid);
    expect(lines[0]).to.equal(
      `revoked   ${active.kid}; the registries still trust it on-chain until the sync below succeeds`,
    );
    await expectNotTrusted("production", active);
    const replacement = (await keysOf("production")).find(
      (key) => key.status === "active",
    ) as StoredSigningKey;
    await expectTrusted("production", replacement, "open");
    const revokes = (await registryAudit()).filter(
      (row) => row.action === "signing_key.registry_signer_revoked" && row.subject === active.kid,
    );
    expect(revokes.map((row) => row.details.family)).to.have.members(["evm", "solana"]);
  });

  it("retire --force inside the overlap: the registries stop trusting the retired key, audited under its kid", async () => {
    const retiring = (await keysOf("production")).find(
      (key) => key.status === "retiring",
    ) as StoredSigningKey;
    await run("signing-keys:retire", "--kid", retiring.kid, "--force");
    expect(await keyOf(retiring.kid)).to.equal(undefined);
    await expectNotTrusted("production", retiring);
    const revokes = (await registryAudit()).filter(
      (row) => row.action === "signing_key.registry_signer_revoked" && row.subject === retiring.kid,
    );
    expect(revokes).to.have.length(2);
    const evmRevoke = revokes.find((row) => row.details.family === "evm");
    expect(evmRevoke?.details).to.include({
      environment: "production",
      chain: evm.chain,
      registry: evm.registry,
      kid: retiring.kid,
      signer: retiring.evmAddress,
    });
    expect(evmRevoke?.details.transaction).to.match(/^0x[0-9a-f]{64}$/);
  });

  it("Solana's 4 entries: ended entries are reused, and a fifth key to trust fails the command naming the fix", async () => {
    for (let rotation = 0; rotation < 3; rotation += 1)
      await run("signing-keys:rotate", "--environment", "production");
    const trusted = (await keysOf("production")).filter((key) => key.status !== "revoked");
    expect(trusted).to.have.length(4);
    for (const key of trusted) {
      const until =
        key.status === "active" ? "open" : seconds(key.retiringAt as Date) + BigInt(KEY_OVERLAP_SECONDS);
      await expectTrusted("production", key, until);
    }
    const failure = await run("signing-keys:rotate", "--environment", "production").catch(
      (error: Error) => error,
    );
    expect(failure).to.be.instanceOf(Error);
    const active = (await keysOf("production")).find((key) => key.status === "active") as StoredSigningKey;
    const oldest = (await keysOf("production")).find((key) => key.status === "retiring") as StoredSigningKey;
    expect((failure as Error).message)
      .to.contain(`No free decision signer entry for ${active.kid}`)
      .and.contain(`signing-keys:retire --kid ${oldest.kid} --force`);
    // The EVM registry has no such bound: it already trusts the new key.
    expect((await evmWindow("production", active.evmAddress as Address)).validUntil).to.equal(UINT64_MAX);

    await run("signing-keys:retire", "--kid", oldest.kid, "--force");
    await expectTrusted("production", active, "open");
    await expectNotTrusted("production", oldest);
  });

  /** Rotates the sandbox key with `credentials`, expecting the command to fail; returns its error. */
  async function failingRotation(credentials: Record<string, string>): Promise<Error> {
    useCredentials(credentials);
    try {
      const failure = await run("signing-keys:rotate", "--environment", "sandbox").catch(
        (error: Error) => error,
      );
      expect(failure).to.be.instanceOf(Error);
      return failure as Error;
    } finally {
      useCredentials({ [OWNER_KEY_VARIABLE]: undefined, [ADMIN_KEYPAIR_VARIABLE]: undefined });
    }
  }
  const sandboxActive = async () =>
    (await keysOf("sandbox")).find((key) => key.status === "active") as StoredSigningKey;

  it("a wrong EVM owner key fails the EVM registry only; the command names the variable, and sync repairs it", async () => {
    const wrongKey = `0x${randomBytes(32).toString("hex")}`;
    const failure = await failingRotation({ [OWNER_KEY_VARIABLE]: wrongKey });
    expect(failure.message).to.contain(OWNER_KEY_VARIABLE).and.contain("signing-keys:sync");
    expect(failure.message).to.not.contain(wrongKey.slice(2));
    const active = await sandboxActive();
    expect((await solanaWindows("sandbox")).get(base58Of(active))?.validUntil).to.equal(I64_MAX);
    expect((await evmWindow("sandbox", active.evmAddress as Address)).validUntil).to.equal(0n);

    lines = [];
    await run("signing-keys:sync", "--environment", "sandbox");
    await expectTrusted("sandbox", active, "open");
    expect(lines.some((line) => line.endsWith(`${solana.sandbox?.programId}: in step`))).to.equal(true);
  });

  it("a wrong or unreadable Solana admin keypair fails the Solana registry only, never echoing the file", async () => {
    const stranger = join(dir, "stranger.json");
    writeFileSync(stranger, JSON.stringify(Array.from(Keypair.generate().secretKey)));
    const failure = await failingRotation({ [ADMIN_KEYPAIR_VARIABLE]: stranger });
    expect(failure.message).to.contain(ADMIN_KEYPAIR_VARIABLE).and.contain("use the admin's keypair");
    const active = await sandboxActive();
    expect((await evmWindow("sandbox", active.evmAddress as Address)).validUntil).to.equal(UINT64_MAX);
    expect((await solanaWindows("sandbox")).has(base58Of(active))).to.equal(false);

    const garbled = join(dir, "garbled.json");
    writeFileSync(garbled, "5KsecretKeyInBase58NotJson");
    const unreadable = await failingRotation({ [ADMIN_KEYPAIR_VARIABLE]: garbled });
    expect(unreadable.message).to.contain(`${ADMIN_KEYPAIR_VARIABLE} ${garbled} is not a keypair file`);
    expect(unreadable.message).to.not.contain("5Ksecret");

    await run("signing-keys:sync", "--environment", "sandbox");
    await expectTrusted("sandbox", await sandboxActive(), "open");
  });

  it("with no registry of the environment in the manifest, the sync says so and succeeds", async () => {
    const emptyManifest = join(dir, "empty.json");
    writeFileSync(emptyManifest, JSON.stringify({ evm: [], solana: [] }));
    await command("signing-keys:sync").run(["--actor", "ops-alice", "--reason", "test"], {
      ...context,
      config: parseConfig({ DEPLOYMENT_MANIFEST: emptyManifest }),
    });
    expect(lines).to.deep.equal([
      "registries (sandbox): none in the deployment manifest, nothing to keep in step",
      "registries (production): none in the deployment manifest, nothing to keep in step",
    ]);
  });
});
