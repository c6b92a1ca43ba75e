// Builds the partner SDK (sdk/) for publishing: dist/index.js (ESM, the browser-safe part of core/ bundled
// in, @noble/ed25519 left to the installer), dist/sdk.browser.js (the same with @noble/ed25519 inside, for a
// page without a bundler) and the declarations under dist/types, whose relative imports get explicit `.js`
// extensions so that Node's ESM resolution (moduleResolution node16/nodenext) finds them too.
//   npx tsx scripts/sdk/build.ts        (or: cd sdk && npm run build)
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { build } from "esbuild";

export const SDK_DIR = resolve(__dirname, "..", "..", "sdk");
const ENTRY = join(SDK_DIR, "src", "index.ts");

/** The self-contained browser bundle's text (noble included), for tests and pages without a bundler. */
export async function browserBundle(): Promise<string> {
  const result = await build({
    entryPoints: [ENTRY],
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    write: false,
  });
  return (result.outputFiles[0] as { text: string }).text;
}

function declarationFiles(directory: string): string[] {
  return readdirSync(directory).flatMap((name) => {
    const path = join(directory, name);
    return statSync(path).isDirectory() ? declarationFiles(path) : path.endsWith(".d.ts") ? [path] : [];
  });
}

/** `from "./x"` → `from "./x.js"` (or "./x/index.js") in every emitted declaration file. */
function withExtensions(typesDir: string): void {
  for (const file of declarationFiles(typesDir)) {
    const text = readFileSync(file, "utf8").replace(
      /(from\s+|import\(\s*)(["'])(\.{1,2}\/[^"']+)\2/g,
      (match, keyword: string, quote: string, specifier: string) => {
        if (/\.js$/.test(specifier)) return match;
        const base = resolve(dirname(file), specifier);
        const target = existsSync(`${base}.d.ts`) ? `${specifier}.js` : `${specifier}/index.js`;
        return `${keyword}${quote}${target}${quote}`;
      },
    );
    writeFileSync(file, text);
  }
}

export async function buildSdk(): Promise<void> {
  const dist = join(SDK_DIR, "dist");
  rmSync(dist, { recursive: true, force: true });
  await build({
    entryPoints: [ENTRY],
    bundle: true,
    format: "esm",
    platform: "neutral",
    target: "es2022",
    external: ["@noble/ed25519"],
    outfile: join(dist, "index.js"),
  });
  writeFileSync(join(dist, "sdk.browser.js"), await browserBundle());
  execFileSync(
    process.execPath,
    [require.resolve("typescript/bin/tsc"), "-p", join(SDK_DIR, "tsconfig.build.json")],
    {
      stdio: "inherit",
    },
  );
  withExtensions(join(dist, "types"));
}

if (require.main === module) {
  buildSdk().then(
    () => console.log(`built ${join(SDK_DIR, "dist")}`),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}
