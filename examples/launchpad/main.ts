// `npx tsx examples/launchpad/main.ts`: the example launchpad's flow against a running `npm start`
// (SERVICE_URL, default http://127.0.0.1:8787; SERVICE_API_KEY, LAUNCHPAD_ID and LAUNCHPAD_PORT optional).
// Not PORT: that is the service's own port, set in the shell the service runs from.
import { runDemo } from "./demo";

/** The launchpad's port (0: any free one). */
const port = Number(process.env.LAUNCHPAD_PORT ?? 0);

async function main(): Promise<void> {
  const serviceUrl = process.env.SERVICE_URL ?? "http://127.0.0.1:8787";
  const result = await runDemo({
    serviceUrl,
    ...(process.env.SERVICE_API_KEY ? { apiKey: process.env.SERVICE_API_KEY } : {}),
    ...(process.env.LAUNCHPAD_ID ? { launchpadId: process.env.LAUNCHPAD_ID } : {}),
    port,
    log: (message) => console.log(message),
  });
  console.log(`webhook launch.reported verified: ${JSON.stringify(result.reported.data)}`);
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
