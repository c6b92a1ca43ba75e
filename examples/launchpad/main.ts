// `npx tsx examples/launchpad/main.ts`: the example launchpad's flow against a running `npm start`
// (SERVICE_URL, default http://127.0.0.1:8787; SERVICE_API_KEY, LAUNCHPAD_ID and PORT optional).
import { runDemo } from "./demo";

async function main(): Promise<void> {
  const serviceUrl = process.env.SERVICE_URL ?? "http://127.0.0.1:8787";
  const result = await runDemo({
    serviceUrl,
    ...(process.env.SERVICE_API_KEY ? { apiKey: process.env.SERVICE_API_KEY } : {}),
    ...(process.env.LAUNCHPAD_ID ? { launchpadId: process.env.LAUNCHPAD_ID } : {}),
    port: Number(process.env.PORT ?? 0),
    log: (message) => console.log(message),
  });
  console.log(`webhook launch.reported verified: ${JSON.stringify(result.reported.data)}`);
  await result.launchpad.close();
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
