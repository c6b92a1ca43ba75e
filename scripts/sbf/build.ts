// Builds the C programs under programs/ (identity_registry, guarded_launchpad): clang-16 (BPF objects) -> the
// project's SBF linker -> .so + .sha256. `npm run build:program` writes the artifacts; `npm run verify:program`
// rebuilds in a temporary folder and fails when the bytes differ from the committed sha256 (a verifiable build).
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { ServiceError } from "../../core/errors/serviceError";
import { linkSbf } from "./link";

export const PROGRAMS_DIR = join(__dirname, "..", "..", "programs");
export const PROGRAM_DIR = join(PROGRAMS_DIR, "identity_registry");
export const LAUNCHPAD_PROGRAM_DIR = join(PROGRAMS_DIR, "guarded_launchpad");
/**
 * The deployable programs, built by `npm run build:program` and verified by `npm run verify:program` when no folder is
 * named. Test-only programs (test/programs/support/cpi_caller) are checked by their own tests.
 */
export const PROGRAM_DIRS: readonly string[] = [PROGRAM_DIR, LAUNCHPAD_PROGRAM_DIR];
export const SOURCE_DIR = join(PROGRAM_DIR, "src");
export const SO_PATH = join(PROGRAM_DIR, "build", "identity_registry.so");
export const SHA256_PATH = `${SO_PATH}.sha256`;
export const CLANG = process.env.SBF_CLANG ?? "clang-16";

/** Where a program folder laid out as `<folder>/src/*.c` keeps its artifact: `<folder>/build/<folder name>.so`. */
export function programArtifact(programDir: string) {
  const name = basename(programDir);
  const soPath = join(programDir, "build", `${name}.so`);
  return { name, sourceDir: join(programDir, "src"), soPath, sha256Path: `${soPath}.sha256` };
}

/** Pinned flags: v2 has no JMP32 and no alu32 (see docs/solana-program.md); no builtins, no libc. */
export const CLANG_FLAGS = [
  "-target",
  "bpf",
  "-mcpu=v2",
  "-O2",
  "-fno-builtin",
  "-ffreestanding",
  "-nostdlib",
  "-fno-stack-protector",
  "-fno-unwind-tables",
  "-fno-asynchronous-unwind-tables",
  "-Wall",
  "-Werror",
  "-c",
];

export class ClangMissingError extends ServiceError {
  constructor() {
    super(
      `${CLANG} was not found. Install it (Debian/Ubuntu: apt-get install -y clang-16) or set SBF_CLANG; ` +
        "tests and deploys use the committed programs/<name>/build/<name>.so files instead.",
    );
  }
}

export function hasClang(): boolean {
  try {
    execFileSync(CLANG, ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/** First line of `clang --version`, for reports on a byte mismatch. */
export function clangVersion(): string {
  return execFileSync(CLANG, ["--version"], { encoding: "utf8" }).split("\n")[0] ?? "";
}

/** Compiles one C file to a BPF object; runs inside `cwd` so object files carry only relative names. */
export function compileC(source: string, output: string, cwd = SOURCE_DIR, extraFlags: string[] = []): void {
  if (!hasClang()) throw new ClangMissingError();
  execFileSync(CLANG, [...CLANG_FLAGS, ...extraFlags, source, "-o", output], {
    cwd,
    stdio: ["ignore", "inherit", "inherit"],
  });
}

export function sha256Hex(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/**
 * Compiles every C source of `sourceDir` (in name order, so the layout is stable) and links the shared object.
 * The registry by default; test programs (test/programs/support/) are built the same way.
 */
export function buildProgram(sourceDir = SOURCE_DIR): Uint8Array {
  const workDir = mkdtempSync(join(tmpdir(), "sbf-build-"));
  try {
    const sources = readdirSync(sourceDir)
      .filter((file) => file.endsWith(".c"))
      .sort();
    const objects = sources.map((source) => {
      const output = join(workDir, source.replace(/\.c$/, ".o"));
      compileC(source, output, sourceDir);
      return { file: source, bytes: readFileSync(output) };
    });
    return linkSbf(objects);
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
}
