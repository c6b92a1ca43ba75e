// Builds the partner SDK (sdk/) for publishing: dist/index.js (ESM, the browser-safe part of core/ bundled
// in, @noble/ed25519 left to the installer), the on-chain guard entries (dist/onchain-guard*.js, viem and
// @solana/web3.js left to the installer) and the testing entry (dist/testing.js, Node only, with the committed
// programs copied to dist/programs/), sharing their common code through chunks so an SdkError is one class;
// dist/sdk.browser.js (the main entry with @noble/ed25519 inside, for a page without a bundler) and the
// declarations under dist/types, whose relative imports get explicit `.js` extensions so that Node's ESM
// resolution (moduleResolution node16/nodenext) finds them too.
//   npx tsx scripts/sdk/build.ts        (or: cd sdk && npm run build)
import { execFileSync } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { dirname, join, resolve } from "node:path";
import { build } from "esbuild";

export const SDK_DIR = resolve(__dirname, "..", "..", "sdk");
const ENTRY = join(SDK_DIR, "src", "index.ts");
/** Each bundle of dist/ and its source under sdk/src (the package.json exports map names them). */
const ENTRIES = {
  index: "index.ts",
  "onchain-guard": "onchainGuard/index.ts",
  "onchain-guard-evm": "onchainGuard/evm.ts",
  "onchain-guard-solana": "onchainGuard/solana.ts",
  testing: "testing/index.ts",
} as const;
/** Left to the installer: the runtime dependency and the optional peer dependencies of the package. */
const EXTERNAL = ["@noble/ed25519", "viem", "@solana/web3.js", "@solana/kit", "litesvm", "buffer", "node:*"];
/** The programs the testing entry loads (sdk/src/testing/programFiles.ts finds them beside the bundle). */
const PROGRAMS = ["identity_registry", "guarded_launchpad"];

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

function copyPrograms(directory: string): void {
  mkdirSync(directory, { recursive: true });
  for (const name of PROGRAMS) {
    copyFileSync(
      resolve(SDK_DIR, "..", "programs", name, "build", `${name}.so`),
      join(directory, `${name}.so`),
    );
  }
}

/** tsconfig.build.json's declarations of every entry (a config in dist/ extending it names them all). */
function emitDeclarations(dist: string): void {
  const config = join(dist, "tsconfig.entries.json");
  const files = Object.values(ENTRIES).map((source) => `../src/${source}`);
  writeFileSync(config, JSON.stringify({ extends: "../tsconfig.build.json", files }));
  execFileSync(process.execPath, [require.resolve("typescript/bin/tsc"), "-p", config], { stdio: "inherit" });
  rmSync(config);
}

export async function buildSdk(): Promise<void> {
  const dist = join(SDK_DIR, "dist");
  rmSync(dist, { recursive: true, force: true });
  await build({
    entryPoints: Object.fromEntries(
      Object.entries(ENTRIES).map(([name, source]) => [name, join(SDK_DIR, "src", source)]),
    ),
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "neutral",
    // Bundled packages (js-sha3 of core's fold) resolve by these fields; "neutral" reads none by default.
    mainFields: ["module", "main"],
    target: "es2022",
    external: EXTERNAL,
    outdir: dist,
  });
  writeFileSync(join(dist, "sdk.browser.js"), await browserBundle());
  copyPrograms(join(dist, "programs"));
  emitDeclarations(dist);
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
