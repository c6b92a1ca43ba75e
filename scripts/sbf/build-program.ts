// npm run build:program: writes programs/identity_registry/build/identity_registry.so and its sha256 file.
import { writeFileSync } from "node:fs";
import { buildProgram, ClangMissingError, SHA256_PATH, SO_PATH, sha256Hex } from "./build";

try {
  const bytes = buildProgram();
  writeFileSync(SO_PATH, bytes);
  writeFileSync(SHA256_PATH, `${sha256Hex(bytes)}  identity_registry.so\n`);
  console.error(`built ${SO_PATH} (${bytes.length} bytes, sha256 ${sha256Hex(bytes)})`);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(error instanceof ClangMissingError ? 3 : 1);
}
