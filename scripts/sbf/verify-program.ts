// npm run verify:program: rebuilds every deployable program (identity_registry, guarded_launchpad; or the program
// folders named as arguments) and compares each with its committed sha256.
// Exit codes: 0 same bytes, 1 different bytes or build failure, 3 clang-16 missing (CI installs it).
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import {
  buildProgram,
  ClangMissingError,
  clangVersion,
  PROGRAM_DIRS,
  programArtifact,
  sha256Hex,
} from "./build";

export const EXIT_MISMATCH = 1;
export const EXIT_CLANG_MISSING = 3;

try {
  const folders =
    process.argv.length > 2 ? process.argv.slice(2).map((folder) => resolve(folder)) : PROGRAM_DIRS;
  const verified: string[] = [];
  let mismatches = 0;
  for (const folder of folders) {
    const { name, sourceDir, soPath, sha256Path } = programArtifact(folder);
    const committed = readFileSync(sha256Path, "utf8").split(/\s+/)[0];
    const rebuilt = sha256Hex(buildProgram(sourceDir));
    if (rebuilt === committed) {
      verified.push(`${name} ${rebuilt}`);
      continue;
    }
    mismatches++;
    console.error(
      `verify:program FAILED: rebuilt ${name}.so has sha256 ${rebuilt}, committed ${sha256Path} says ` +
        `${committed}. Run \`npm run build:program\` and commit ${soPath} with its .sha256, or find the ` +
        `toolchain difference (this machine: ${clangVersion()}; see docs/solana-program.md for the pinned one).`,
    );
  }
  if (mismatches > 0) process.exit(EXIT_MISMATCH);
  console.error(`verify:program ok: ${verified.join("; ")}`);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(error instanceof ClangMissingError ? EXIT_CLANG_MISSING : EXIT_MISMATCH);
}
