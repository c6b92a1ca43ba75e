// The project's SBF linker: output structure, each relocation kind, internal vs syscall calls, refusals,
// and a linked program that runs after a deploy through the BPF Upgradeable Loader (strict ELF checks).
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { Keypair, Transaction, TransactionInstruction } from "@solana/web3.js";
import { expect } from "chai";
import { SHA256_PATH, SO_PATH } from "../../../scripts/sbf/build";
import {
  linkSbf,
  MissingEntrypointError,
  UnknownSyscallError,
  UnsupportedInstructionError,
  UnsupportedRelocationError,
  WritableSectionError,
} from "../../../scripts/sbf/link";
import { deployProgram } from "../../../scripts/solana/deploy";
import { LiteSvmProvider } from "../../../scripts/solana/litesvm-provider";
import { compileSnippets, readShared, skipWithoutClang } from "./support";

const MAIN_C = `
typedef unsigned long long u64;
extern void sol_log_(const char *, u64);
extern u64 helper(u64);
u64 entrypoint(const unsigned char *input) {
  sol_log_("linked by the project", 21);
  return helper(input[0]) == 1 ? 0 : 42;
}
`;
const HELPER_C = `
typedef unsigned long long u64;
extern void sol_log_(const char *, u64);
static const char message[] = "helper in a second object";
u64 helper(u64 x) { sol_log_(message, sizeof message - 1); return x + 1; }
`;
const R_BPF_64_RELATIVE = 8;
const R_BPF_64_32 = 10;
const OP_CALL = 0x85;
const OP_LDDW = 0x18;

function expectStrictLayout(bytes: Uint8Array): void {
  const elf = readShared(bytes);
  expect(elf.type).to.equal(3); // ET_DYN
  expect(elf.machine).to.equal(247); // EM_BPF
  expect(elf.flags).to.equal(0); // SBPF v0
  const text = elf.section(".text");
  expect(elf.sections.filter((section) => section.name === ".text")).to.have.length(1);
  expect(
    elf.sections.some((section) => section.name.startsWith(".bss") || section.name.startsWith(".data")),
  ).to.equal(false);
  for (const section of elf.sections.filter((candidate) => [".text", ".rodata"].includes(candidate.name))) {
    expect(section.addr, `${section.name} sh_addr`).to.equal(section.offset);
    expect(section.flags & 0x1, `${section.name} writable`).to.equal(0);
  }
  const fileRanges = elf.sections
    .filter((section) => section.size > 0)
    .map((section) => [section.offset, section.offset + section.size]);
  for (let index = 1; index < fileRanges.length; index++) {
    expect(fileRanges[index]?.[0]).to.be.at.least(fileRanges[index - 1]?.[1] ?? 0);
  }
  const loads = elf.programHeaders.filter((header) => header.type === 1).map((header) => header.vaddr);
  expect(loads).to.deep.equal([...loads].sort((a, b) => a - b));
  expect(elf.programHeaders.some((header) => header.type === 2)).to.equal(true);
  expect(elf.entry).to.be.within(text.addr, text.addr + text.size - 8);
  expect((elf.entry - text.addr) % 8).to.equal(0);
}

describe("sbf linker", () => {
  describe("committed identity_registry.so", () => {
    it("matches its committed sha256", () => {
      const committed = readFileSync(SHA256_PATH, "utf8").split(/\s+/)[0];
      expect(createHash("sha256").update(readFileSync(SO_PATH)).digest("hex")).to.equal(committed);
    });

    it("has the layout the loader's strict checks require, and only known syscalls", () => {
      const bytes = readFileSync(SO_PATH);
      expectStrictLayout(bytes);
      const syscalls = new Set(
        readShared(bytes)
          .relocations.filter((r) => r.type === R_BPF_64_32)
          .map((r) => r.symbol),
      );
      expect([...syscalls].sort()).to.include.members([
        "sol_invoke_signed_c",
        "sol_keccak256",
        "sol_log_data",
      ]);
    });
  });

  describe("linking C objects", () => {
    let objects: ReturnType<typeof compileSnippets>;
    let linked: Uint8Array;
    before(function () {
      skipWithoutClang(this);
      objects = compileSnippets({ "main.c": MAIN_C, "helper.c": HELPER_C });
      linked = linkSbf(objects);
    });

    it("writes an SBPF v0 shared object with read-only sections at their file offsets", () => {
      expectStrictLayout(linked);
    });

    it("is deterministic: the same objects give the same bytes", () => {
      expect(Buffer.from(linkSbf(objects)).equals(Buffer.from(linked))).to.equal(true);
    });

    it("relocates every lddw of a data address (R_BPF_64_64) as R_BPF_64_RELATIVE into .rodata", () => {
      const elf = readShared(linked);
      const rodata = elf.section(".rodata");
      const relative = elf.relocations.filter((r) => r.type === R_BPF_64_RELATIVE);
      expect(relative).to.have.length(2); // one string per object
      for (const relocation of relative) {
        const instruction = elf.instruction(relocation.offset);
        expect(instruction.opcode).to.equal(OP_LDDW);
        expect(instruction.immHigh).to.equal(0);
        expect(instruction.imm).to.be.within(rodata.addr, rodata.addr + rodata.size - 1);
      }
      const strings = relative.map((r) =>
        Buffer.from(linked.subarray(elf.instruction(r.offset).imm)).toString("latin1"),
      );
      expect(strings.some((text) => text.startsWith("linked by the project"))).to.equal(true);
      expect(strings.some((text) => text.startsWith("helper in a second object"))).to.equal(true);
    });

    it("keeps syscalls as `call -1` with an R_BPF_64_32 relocation naming them", () => {
      const elf = readShared(linked);
      const syscalls = elf.relocations.filter((r) => r.type === R_BPF_64_32);
      expect(syscalls.map((r) => r.symbol)).to.deep.equal(["sol_log_", "sol_log_"]);
      for (const relocation of syscalls) {
        expect(elf.instruction(relocation.offset)).to.include({ opcode: OP_CALL, imm: -1 });
      }
    });

    it("resolves a call into another object to a pc-relative immediate, with no relocation left", () => {
      const elf = readShared(linked);
      const text = elf.section(".text");
      const relocated = new Set(elf.relocations.map((r) => r.offset));
      const internal: number[] = [];
      for (let at = text.offset; at < text.offset + text.size; at += 8) {
        const instruction = elf.instruction(at);
        if (instruction.opcode === OP_CALL && !relocated.has(at)) internal.push(at + 8 + instruction.imm * 8);
        if (instruction.opcode === OP_LDDW) at += 8;
      }
      expect(internal).to.have.length(1);
      const helperStart = internal[0] ?? 0;
      expect(helperStart).to.be.within(text.offset, text.offset + text.size - 8);
      expect(elf.relocations.some((r) => r.symbol === "helper")).to.equal(false);
    });

    it("deploys through the upgradeable loader and runs: rodata, syscalls and the cross-object call work", async () => {
      const provider = LiteSvmProvider.create(Keypair.generate());
      const program = Keypair.generate();
      await deployProgram(provider, { program, bytes: linked });
      await provider.sendAndConfirm(
        new Transaction().add(
          new TransactionInstruction({ programId: program.publicKey, keys: [], data: Buffer.alloc(0) }),
        ),
      );
      expect(provider.last?.logs).to.include.members([
        "Program log: linked by the project",
        "Program log: helper in a second object",
      ]);
    });
  });

  describe("refusals", () => {
    beforeEach(function () {
      skipWithoutClang(this);
    });

    it("refuses JMP32 opcodes", () => {
      const [object] = compileSnippets({
        "cmp.c": "long entrypoint(long a, long b) { if (a < b) return 1; return 2; }",
      });
      if (!object) throw new Error("no object");
      const bytes = Buffer.from(object.bytes);
      const jump = bytes.indexOf(Buffer.from([0xcd])); // jslt (64-bit, register)
      expect(jump).to.be.greaterThan(0);
      bytes[jump] = 0xce; // the same jump in the JMP32 class, as -mcpu=v3 emits
      expect(() => linkSbf([{ file: "cmp.o", bytes }])).to.throw(UnsupportedInstructionError, /JMP32/);
    });

    it("refuses 32-bit ALU (alu32) opcodes", () => {
      const objects = compileSnippets(
        { "alu.c": "unsigned int entrypoint(unsigned int a, unsigned int b) { return a * b + 7; }" },
        ["-Xclang", "-target-feature", "-Xclang", "+alu32"],
      );
      expect(() => linkSbf(objects)).to.throw(UnsupportedInstructionError, /32-bit ALU/);
    });

    it("refuses writable sections (mutable globals)", () => {
      const objects = compileSnippets({
        "global.c": "long counter = 5; long entrypoint(void) { return counter++; }",
      });
      expect(() => linkSbf(objects)).to.throw(WritableSectionError, /counter/);
    });

    it("refuses calls to names that are neither defined nor Solana syscalls", () => {
      const objects = compileSnippets({
        "typo.c":
          'extern void sol_lgo_(const char *, long); long entrypoint(void) { sol_lgo_("x", 1); return 0; }',
      });
      expect(() => linkSbf(objects)).to.throw(UnknownSyscallError, /sol_lgo_/);
    });

    it("refuses address tables in read-only data, which SBPF v0 cannot relocate there", () => {
      const source = `
        typedef struct { const char *text; long len; } Slice;
        extern void sol_log_(const char *, long);
        long entrypoint(void) { const Slice s = {"abc", 3}; const Slice *volatile p = &s; sol_log_(p->text, p->len); return 0; }`;
      const objects = compileSnippets({ "table.c": source });
      expect(() => linkSbf(objects)).to.throw(UnsupportedRelocationError, /pointer tables/);
    });

    it("refuses inputs without the entry function", () => {
      const objects = compileSnippets({ "lib.c": "long not_entry(long a) { return a + 1; }" });
      expect(() => linkSbf(objects)).to.throw(MissingEntrypointError, /entrypoint/);
    });
  });
});
