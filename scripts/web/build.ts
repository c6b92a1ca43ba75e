// The lookup page's browser script: api/web/client/lookup.ts and the core/fold files it imports, bundled and
// minified into one classic script (no module loader, no runtime). `npm run build:web` writes it; the web
// tests rebuild it and fail when the committed file differs, so the page never runs a stale fold.
import { writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { build } from "esbuild";

const ROOT = join(__dirname, "..", "..");
export const LOOKUP_ENTRY = join(ROOT, "api", "web", "client", "lookup.ts");
export const LOOKUP_SCRIPT = join(ROOT, "api", "web", "assets", "lookup.js");

/** The bundled script as esbuild makes it (deterministic for the same sources and esbuild version). */
export async function buildLookupScript(): Promise<string> {
  const result = await build({
    entryPoints: [LOOKUP_ENTRY],
    bundle: true,
    minify: true,
    format: "iife",
    target: "es2020",
    platform: "browser",
    write: false,
    legalComments: "none",
    charset: "utf8",
  });
  const [output] = result.outputFiles;
  if (output === undefined) throw new Error("esbuild produced no output for the lookup script");
  return output.text;
}

if (require.main === module) {
  buildLookupScript()
    .then((script) => {
      writeFileSync(LOOKUP_SCRIPT, script);
      console.error(`wrote ${relative(ROOT, LOOKUP_SCRIPT)} (${Buffer.byteLength(script)} bytes)`);
    })
    .catch((error: unknown) => {
      console.error(error);
      process.exit(1);
    });
}
