// npm run verify:program: rebuilds the program and compares it with the committed sha256.
// Exit codes: 0 same bytes, 1 different bytes or build failure, 3 clang-16 missing (CI installs it).
import { readFileSync } from "node:fs";
import { buildProgram, ClangMissingError, clangVersion, SHA256_PATH, SO_PATH, sha256Hex } from "./build";

export const EXIT_MISMATCH = 1;
export const EXIT_CLANG_MISSING = 3;

try {
  const committed = readFileSync(SHA256_PATH, "utf8").split(/\s+/)[0];
  const rebuilt = sha256Hex(buildProgram());
  if (rebuilt !== committed) {
    console.error(
      `verify:program FAILED: rebuilt identity_registry.so has sha256 ${rebuilt}, committed ${SHA256_PATH} says ` +
        `${committed}. Run \`npm run build:program\` and commit ${SO_PATH} with its .sha256, or find the ` +
        `toolchain difference (this machine: ${clangVersion()}; see docs/solana-program.md for the pinned one).`,
    );
    process.exit(EXIT_MISMATCH);
  }
  console.error(`verify:program ok: ${rebuilt}`);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(error instanceof ClangMissingError ? EXIT_CLANG_MISSING : EXIT_MISMATCH);
}
