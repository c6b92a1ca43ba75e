// Compiles C snippets with the project's pinned clang flags, for the linker's tests. Without clang-16 the
// tests that need it skip with a printed reason (the committed .so is still checked).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { compileC, hasClang } from "../../../scripts/sbf/build";
import type { InputObject } from "../../../scripts/sbf/link";

export const CLANG_AVAILABLE = hasClang();

export function skipWithoutClang(context: Mocha.Context): void {
  if (!CLANG_AVAILABLE) {
    console.log(
      "      (skipped: clang-16 not installed; apt-get install -y clang-16 to run the linker tests)",
    );
    context.skip();
  }
}

/** Compiles `files` (name -> C source) into BPF objects. */
export function compileSnippets(files: Record<string, string>, extraFlags: string[] = []): InputObject[] {
  const dir = mkdtempSync(join(tmpdir(), "sbf-test-"));
  try {
    return Object.entries(files).map(([name, source]) => {
      writeFileSync(join(dir, name), source);
      const output = join(dir, name.replace(/\.c$/, ".o"));
      compileC(name, output, dir, extraFlags);
      return { file: name, bytes: readFileSync(output) };
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A minimal reader of the linker's output, independent of the linker's own code. */
export function readShared(bytes: Uint8Array) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const u64 = (at: number) => Number(view.getBigUint64(at, true));
  const shoff = u64(0x28);
  const shnum = view.getUint16(0x3c, true);
  const shstrndx = view.getUint16(0x3e, true);
  const raw = Array.from({ length: shnum }, (_, index) => {
    const at = shoff + index * 64;
    return {
      nameOffset: view.getUint32(at, true),
      type: view.getUint32(at + 4, true),
      flags: u64(at + 8),
      addr: u64(at + 16),
      offset: u64(at + 24),
      size: u64(at + 32),
    };
  });
  const names = raw[shstrndx] as (typeof raw)[0];
  const nameAt = (offset: number) => {
    let end = names.offset + offset;
    while (bytes[end] !== 0) end++;
    return Buffer.from(bytes.subarray(names.offset + offset, end)).toString("latin1");
  };
  const sections = raw.map((section) => ({ ...section, name: nameAt(section.nameOffset) }));
  const phnum = view.getUint16(0x38, true);
  const programHeaders = Array.from({ length: phnum }, (_, index) => {
    const at = u64(0x20) + index * 56;
    return {
      type: view.getUint32(at, true),
      flags: view.getUint32(at + 4, true),
      offset: u64(at + 8),
      vaddr: u64(at + 16),
      size: u64(at + 32),
    };
  });
  const section = (name: string) => {
    const found = sections.find((candidate) => candidate.name === name);
    if (!found) throw new Error(`no ${name} section`);
    return found;
  };
  const dynstr = section(".dynstr");
  const dynsym = section(".dynsym");
  const symbolName = (index: number) => {
    let start = dynstr.offset + view.getUint32(dynsym.offset + index * 24, true);
    const from = start;
    while (bytes[start] !== 0) start++;
    return Buffer.from(bytes.subarray(from, start)).toString("latin1");
  };
  const rel = section(".rel.dyn");
  const relocations = Array.from({ length: rel.size / 16 }, (_, index) => {
    const info = view.getBigUint64(rel.offset + index * 16 + 8, true);
    const symbol = Number(info >> 32n);
    return {
      offset: u64(rel.offset + index * 16),
      type: Number(info & 0xffffffffn),
      symbol: symbol ? symbolName(symbol) : "",
    };
  });
  return {
    type: view.getUint16(0x10, true),
    machine: view.getUint16(0x12, true),
    flags: view.getUint32(0x30, true),
    entry: u64(0x18),
    sections,
    programHeaders,
    relocations,
    section,
    /** The 8-byte instruction at file offset `at`. */
    instruction: (at: number) => ({
      opcode: bytes[at] ?? 0,
      imm: view.getInt32(at + 4, true),
      immHigh: view.getInt32(at + 12, true),
    }),
  };
}
