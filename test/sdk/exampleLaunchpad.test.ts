// The example launchpad (examples/launchpad) end to end against a running service over real local chains (as
// `npm start` runs them): a self-serve sandbox key, a guarded launch that is reported, a refused one, and the
// launch.reported webhook delivered by the service's dispatcher and verified by the launchpad over the raw body;
// then the on-chain guard on both chains, whose sandbox registries trust the sandbox key as `npm start` makes
// them: the holder's token launched, the copycat's launch refused by the SDK and reverted by the chain. Its command
// runs as `npm run example:launchpad` does from a shell set up for the service, where PORT is the API's port.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Connection, PublicKey } from "@solana/web3.js";
import { expect } from "chai";
import { createPublicClient, http } from "viem";
import { registryCatalogue } from "../../chains/catalogue";
import type { DeploymentManifest } from "../../config/manifest";
import { createSecretBox } from "../../core/secrets/secretBox";
import { type DemoResult, runDemo } from "../../examples/launchpad/demo";
import { type Localnet, startLocalnet } from "../../scripts/localnet";
import { REGISTRY_ADMIN_KEYS } from "../../scripts/registryAdminKeys";
import { signTestWebhook } from "../../sdk/src";
import { manifestChains } from "../../services/mirror/chainCatalogue";
import { ensureSigningKeys } from "../../services/signing/signingKeyStore";
import { syncRegistrySigners } from "../../services/signing/syncRegistrySigners";
import { webhookDispatcher } from "../../services/webhooks";
import { setCheckpoints } from "../api/routes/identity/support";
import { startTestApi, type TestApi } from "../api/support/harness";
import { tableLookup } from "../services/webhooks/support";
import { collectOutput } from "../support/childOutput";

const ROOT = join(__dirname, "..", "..");

interface CommandRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs examples/launchpad/main.ts (what `npm run example:launchpad` runs) with `env` added to this environment. */
function runExampleCommand(env: Record<string, string>): Promise<CommandRun> {
  const { LAUNCHPAD_PORT: _port, SERVICE_API_KEY: _key, LAUNCHPAD_ID: _id, ...inherited } = process.env;
  const child = spawn(process.execPath, ["--import", "tsx", join("examples", "launchpad", "main.ts")], {
    cwd: ROOT,
    env: { ...inherited, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output = collectOutput(child);
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, ...output() }));
  });
}

/** What `npm start` does for its local chains: the sandbox registries trust the sandbox's decision keys. */
async function trustSandboxKeys(api: TestApi, manifest: DeploymentManifest): Promise<void> {
  await ensureSigningKeys(api.db.pool, createSecretBox(api.masterKey));
  const report = await syncRegistrySigners(api.db.pool, {
    environment: "sandbox",
    manifest,
    admin: REGISTRY_ADMIN_KEYS,
    by: { actor: "test", reason: "the example's guarded launches" },
  });
  expect(report.ok, JSON.stringify(report.registries)).to.equal(true);
}

describe("sdk: the example launchpad's flow", function () {
  this.timeout(180_000);
  const lookup = tableLookup({});
  let manifestDir: string;
  let manifestPath: string;
  let localnet: Localnet;
  let api: TestApi;
  let demo: DemoResult;
  let running = true;
  let dispatching: Promise<void> | undefined;
  before(async () => {
    manifestDir = mkdtempSync(join(tmpdir(), "example-manifest-"));
    manifestPath = join(manifestDir, "local.json");
    localnet = await startLocalnet({ evmPort: 0, solanaPort: 0, slotMs: 100, manifestPath });
    const { manifest } = localnet;
    api = await startTestApi({
      deps: {
        registries: registryCatalogue(manifest),
        decisions: { chains: manifestChains(manifest) },
        webhooks: { allowLocalReceivers: true, lookup },
      },
    });
    // The chains are not indexed here: their mirror is marked fresh, as the indexers keep it under `npm start`.
    await setCheckpoints(api.db.pool);
    await trustSandboxKeys(api, manifest);
    // The worker's part: the dispatcher sends what the launchpad's calls caused, as in `npm start`.
    const dispatcher = webhookDispatcher({
      pool: api.db.pool,
      box: createSecretBox(api.masterKey),
      now: Date.now,
      receivers: { allowLocalReceivers: true, lookup },
      log: () => undefined,
    });
    dispatching = (async () => {
      while (running) {
        await dispatcher.pass();
        await dispatcher.settle();
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
    demo = await runDemo({ serviceUrl: api.url, manifestPath, webhookTimeoutMs: 20_000 });
  });
  after(async () => {
    running = false;
    await dispatching;
    await demo?.launchpad.close();
    await api?.close();
    await localnet?.stop();
    rmSync(manifestDir, { recursive: true, force: true });
  });

  /** The service's environment as its README sets it up: PORT is the API's port; the manifest is its chains'. */
  const serviceShell = () => ({
    PORT: new URL(api.url).port,
    SERVICE_URL: api.url,
    DEPLOYMENT_MANIFEST: manifestPath,
  });

  it("guards, launches and reports, refuses a held pair, and receives launch.reported verified", async () => {
    expect(demo.allowed).to.include({ launched: true });
    expect(demo.refused).to.deep.equal({ launched: false, reason: "blocked" });
    expect(demo.reported.type).to.equal("launch.reported");
    expect(JSON.stringify(demo.reported.data)).to.include("::EXMPL");
    // A forged delivery (the same body, signed with another secret) is refused with 400 and not kept.
    const forged = await signTestWebhook({ ...demo.reported, id: "dlv_forged" }, "whsec_forged");
    const answer = await fetch(`${demo.launchpad.url}/webhooks`, {
      method: "POST",
      headers: forged.headers,
      body: forged.body,
    });
    expect(answer.status).to.equal(400);
    expect(demo.launchpad.events.map((event) => event.id)).to.not.include("dlv_forged");
  });

  it("launches the holder's token through the EVM guard; the factory reverts the copycat's launch", async () => {
    const { evm } = demo.guarded;
    const entry = localnet.manifest.evm[0];
    const publicClient = createPublicClient({ transport: http(entry?.rpcUrl) });
    expect(await publicClient.getCode({ address: evm.launched.token })).to.match(/^0x[0-9a-f]{2,}$/);
    expect(evm.copycat).to.include({ decision: "block", refusal: "not_allow", revert: "DecisionNotAllow" });
    expect(await publicClient.getCode({ address: evm.copycat.token })).to.equal(undefined);
  });

  it("launches the holder's mint through the Solana guard; the program refuses the copycat's launch", async () => {
    const { solana } = demo.guarded;
    const connection = new Connection(localnet.solana.rpcUrl, "confirmed");
    const mint = await connection.getAccountInfo(new PublicKey(solana.launched.mint));
    expect(mint?.owner.toBase58()).to.equal(solana.launchProgram);
    expect(solana.copycat).to.include({
      decision: "block",
      refusal: "not_allow",
      programError: "DecisionBlocked",
    });
    expect(await connection.getAccountInfo(new PublicKey(solana.copycat.mint))).to.equal(null);
  });

  it("runs as a command beside the service, whose PORT it leaves to the service", async () => {
    const run = await runExampleCommand(serviceShell());
    expect(run.stderr).to.equal("");
    expect(run.code).to.equal(0);
    expect(run.stdout).to.include('launch SandboxFox/SFOX: {"launched":false,"reason":"blocked"}');
    expect(run.stdout).to.match(/^webhook launch\.reported verified: .*::EXMPL/m);
    expect(run.stdout).to.match(/^guarded EVM launch Guarded \w+\/GUARD: token 0x[0-9a-fA-F]{40} /m);
    expect(run.stdout).to.match(/^guarded EVM copycat SandboxFox\/SFOX: .* reverted DecisionNotAllow$/m);
    expect(run.stdout).to.match(/^guarded Solana launch Guarded \w+\/GUARD: mint \w{32,44} /m);
    expect(run.stdout).to.match(/^guarded Solana copycat SandboxFox\/SFOX: .* refused DecisionBlocked$/m);
  });

  it("names LAUNCHPAD_PORT when the port it asks for is taken", async () => {
    const holder: Server = createServer();
    await new Promise<void>((resolve) => holder.listen(0, "127.0.0.1", resolve));
    const taken = (holder.address() as { port: number }).port;
    try {
      const run = await runExampleCommand({ ...serviceShell(), LAUNCHPAD_PORT: String(taken) });
      expect(run.code).to.equal(1);
      expect(run.stderr.trim()).to.equal(
        `Port ${taken} (example launchpad) is already in use. Stop the process that holds it, or pick another port with LAUNCHPAD_PORT.`,
      );
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  });
});
