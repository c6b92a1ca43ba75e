// Runs one benchmark suite: `npm run bench -- <suite>`. Each suite lives in bench/<suite>.bench.ts and
// exports `run(emit)`. Results go to stdout as JSON lines; anything human-readable goes to stderr.
import { readdirSync } from "node:fs";
import { join } from "node:path";

export type Emit = (metric: string, value: number, unit: string) => void;
export interface BenchSuite {
  run(emit: Emit): Promise<void>;
}

function availableSuites(): string[] {
  return readdirSync(__dirname)
    .filter((file) => file.endsWith(".bench.ts"))
    .map((file) => file.slice(0, -".bench.ts".length))
    .sort();
}

async function main(): Promise<void> {
  const suites = availableSuites();
  const requested = process.argv.slice(2);
  const chosen = requested.length > 0 ? requested : suites;
  for (const suite of chosen) {
    if (!suites.includes(suite)) {
      console.error(`Unknown bench suite "${suite}". Available suites: ${suites.join(", ")}.`);
      process.exit(2);
    }
  }
  for (const suite of chosen) {
    const module: BenchSuite = await import(join(__dirname, `${suite}.bench.ts`));
    const emit: Emit = (metric, value, unit) => {
      process.stdout.write(`${JSON.stringify({ bench: suite, metric, value, unit })}\n`);
    };
    await module.run(emit);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
