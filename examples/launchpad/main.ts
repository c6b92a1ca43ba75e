// `npx tsx examples/launchpad/main.ts`: the example launchpad's flow against a running `npm start`
// (SERVICE_URL, default http://127.0.0.1:8787; SERVICE_API_KEY, LAUNCHPAD_ID and LAUNCHPAD_PORT optional), and
// its guarded launches on the service's local chains, found in DEPLOYMENT_MANIFEST or, as `npm start` writes it,
// DATA_DIR/deployments/local.json (both as the service has them). Not PORT: that is the service's own port, set
// in the shell the service runs from.
import { join } from "node:path";
import { type DemoResult, runDemo } from "./demo";

/** The launchpad's port (0: any free one). */
const port = Number(process.env.LAUNCHPAD_PORT ?? 0);

/** The service's manifest: DEPLOYMENT_MANIFEST, else the one `npm start` writes for its local chains. */
const manifestPath =
  process.env.DEPLOYMENT_MANIFEST || join(process.env.DATA_DIR || "data", "deployments", "local.json");

/** The on-chain results, one line per launch. */
function guardedLines({ evm, solana }: DemoResult["guarded"]): string[] {
  return [
    `guarded EVM launch ${evm.launched.name}/${evm.launched.ticker}: token ${evm.launched.token} (factory ${evm.factory}, transaction ${evm.launched.transaction})`,
    `guarded EVM copycat ${evm.copycat.name}/${evm.copycat.ticker}: validate answered ${evm.copycat.decision}, the SDK refused (${evm.copycat.refusal}), sent anyway the factory reverted ${evm.copycat.revert}`,
    `guarded Solana launch ${solana.launched.name}/${solana.launched.ticker}: mint ${solana.launched.mint} (program ${solana.launchProgram}, transaction ${solana.launched.signature})`,
    `guarded Solana copycat ${solana.copycat.name}/${solana.copycat.ticker}: validate answered ${solana.copycat.decision}, the SDK refused (${solana.copycat.refusal}), sent anyway the program refused ${solana.copycat.programError}`,
  ];
}

async function main(): Promise<void> {
  const serviceUrl = process.env.SERVICE_URL ?? "http://127.0.0.1:8787";
  const result = await runDemo({
    serviceUrl,
    manifestPath,
    ...(process.env.SERVICE_API_KEY ? { apiKey: process.env.SERVICE_API_KEY } : {}),
    ...(process.env.LAUNCHPAD_ID ? { launchpadId: process.env.LAUNCHPAD_ID } : {}),
    port,
    log: (message) => console.log(message),
  });
  console.log(`webhook launch.reported verified: ${JSON.stringify(result.reported.data)}`);
  for (const line of guardedLines(result.guarded)) console.log(line);
  await result.launchpad.close();
}

/** What to print for a failure: a taken port names the variable that moves the launchpad elsewhere. */
function failureMessage(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  return (error as NodeJS.ErrnoException).code === "EADDRINUSE"
    ? `Port ${port} (example launchpad) is already in use. Stop the process that holds it, or pick another port with LAUNCHPAD_PORT.`
    : error.message;
}

main().catch((error) => {
  console.error(failureMessage(error));
  process.exit(1);
});
