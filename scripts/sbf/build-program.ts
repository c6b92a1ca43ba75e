// npm run build:program: writes programs/identity_registry/build/identity_registry.so and its sha256 file.
// `npm run build:program -- <program folder>` builds another program laid out the same way (`<folder>/src/*.c` to
// `<folder>/build/<folder name>.so`), e.g. the test-only test/programs/support/cpi_caller.
import { writeFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { buildProgram, ClangMissingError, PROGRAM_DIR, sha256Hex } from "./build";

try {
  const programDir = resolve(process.argv[2] ?? PROGRAM_DIR);
  const soName = `${basename(programDir)}.so`;
  const soPath = join(programDir, "build", soName);
  const bytes = buildProgram(join(programDir, "src"));
  writeFileSync(soPath, bytes);
  writeFileSync(`${soPath}.sha256`, `${sha256Hex(bytes)}  ${soName}\n`);
  console.error(`built ${soPath} (${bytes.length} bytes, sha256 ${sha256Hex(bytes)})`);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(error instanceof ClangMissingError ? 3 : 1);
}
