// npm run build:program: builds every deployable program (programs/identity_registry, programs/guarded_launchpad)
// and writes `<folder>/build/<folder name>.so` with its sha256 file.
// `npm run build:program -- <program folder>...` builds only those folders laid out the same way (`<folder>/src/*.c`),
// e.g. the test-only test/programs/support/cpi_caller.
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { buildProgram, ClangMissingError, PROGRAM_DIRS, programArtifact, sha256Hex } from "./build";

try {
  const folders =
    process.argv.length > 2 ? process.argv.slice(2).map((folder) => resolve(folder)) : PROGRAM_DIRS;
  for (const folder of folders) {
    const { name, sourceDir, soPath, sha256Path } = programArtifact(folder);
    const bytes = buildProgram(sourceDir);
    writeFileSync(soPath, bytes);
    writeFileSync(sha256Path, `${sha256Hex(bytes)}  ${name}.so\n`);
    console.error(`built ${soPath} (${bytes.length} bytes, sha256 ${sha256Hex(bytes)})`);
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(error instanceof ClangMissingError ? 3 : 1);
}
