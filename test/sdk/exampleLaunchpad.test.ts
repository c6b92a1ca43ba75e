// The example launchpad (examples/launchpad) end to end against a running service: a self-serve sandbox key,
// a guarded launch that is reported, a refused one, and the launch.reported webhook delivered by the
// service's dispatcher and verified by the launchpad over the raw body. Its command runs as
// `npm run example:launchpad` does from a shell set up for the service, where PORT is the API's port.
import { spawn } from "node:child_process";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { expect } from "chai";
import { createSecretBox } from "../../core/secrets/secretBox";
import { runDemo } from "../../examples/launchpad/demo";
import { signTestWebhook } from "../../sdk/src";
import { webhookDispatcher } from "../../services/webhooks";
import { CHAINS, setCheckpoints } from "../api/routes/decisions/support";
import { startTestApi, type TestApi } from "../api/support/harness";
import { tableLookup } from "../services/webhooks/support";

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
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => {
    stdout += chunk;
  });
  child.stderr.on("data", (chunk) => {
    stderr += chunk;
  });
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("sdk: the example launchpad's flow", function () {
  this.timeout(60_000);
  const lookup = tableLookup({});
  let api: TestApi;
  let running = true;
  let dispatching: Promise<void> | undefined;
  before(async () => {
    api = await startTestApi({
      deps: { decisions: { chains: CHAINS }, webhooks: { allowLocalReceivers: true, lookup } },
    });
    await setCheckpoints(api.db.pool);
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
  });
  after(async () => {
    running = false;
    await dispatching;
    await api?.close();
  });

  /** The service's environment as its README sets it up: PORT is the API's port. */
  const serviceShell = () => ({ PORT: new URL(api.url).port, SERVICE_URL: api.url });

  it("guards, launches and reports, refuses a held pair, and receives launch.reported verified", async () => {
    const result = await runDemo({ serviceUrl: api.url, webhookTimeoutMs: 20_000 });
    try {
      expect(result.allowed).to.include({ launched: true });
      expect(result.refused).to.deep.equal({ launched: false, reason: "blocked" });
      expect(result.reported.type).to.equal("launch.reported");
      expect(JSON.stringify(result.reported.data)).to.include("::EXMPL");
      // A forged delivery (the same body, signed with another secret) is refused with 400 and not kept.
      const forged = await signTestWebhook({ ...result.reported, id: "dlv_forged" }, "whsec_forged");
      const answer = await fetch(`${result.launchpad.url}/webhooks`, {
        method: "POST",
        headers: forged.headers,
        body: forged.body,
      });
      expect(answer.status).to.equal(400);
      expect(result.launchpad.events.map((event) => event.id)).to.not.include("dlv_forged");
    } finally {
      await result.launchpad.close();
    }
  });

  it("runs as a command beside the service, whose PORT it leaves to the service", async () => {
    const run = await runExampleCommand(serviceShell());
    expect(run.stderr).to.equal("");
    expect(run.code).to.equal(0);
    expect(run.stdout).to.include('launch SandboxFox/SFOX: {"launched":false,"reason":"blocked"}');
    expect(run.stdout).to.match(/^webhook launch\.reported verified: .*::EXMPL/m);
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
