// The project's SBF linker: BPF relocatable objects from clang -> one SBPF v0 shared object that the
// Solana BPF Upgradeable Loader accepts (rules in /work/shared/notes/toolchain.md and solana-sbpf elf.rs).
//
// Output layout (every read-only section has sh_addr == sh_offset, as the deploy path requires):
//   ELF header | program headers | .text | .rodata | .dynamic .dynsym .dynstr .rel.dyn | .shstrtab | shdrs
// Internal calls are resolved to pc-relative immediates; syscalls stay `call -1` with an R_BPF_64_32
// relocation naming them; every lddw of an address gets an R_BPF_64_RELATIVE relocation.

import { ServiceError } from "../../core/errors/serviceError";
import {
  DF_TEXTREL,
  DT_FLAGS,
  DT_NULL,
  DT_REL,
  DT_RELCOUNT,
  DT_RELENT,
  DT_RELSZ,
  DT_STRSZ,
  DT_STRTAB,
  DT_SYMENT,
  DT_SYMTAB,
  DT_TEXTREL,
  DYN_SIZE,
  ELF_HEADER_SIZE,
  type ElfObject,
  type ElfSection,
  type ElfSymbol,
  EM_BPF,
  ET_DYN,
  PF_R,
  PF_X,
  PROGRAM_HEADER_SIZE,
  PT_DYNAMIC,
  PT_LOAD,
  R_BPF_64_32,
  R_BPF_64_64,
  R_BPF_64_RELATIVE,
  REL_SIZE,
  readElfObject,
  SECTION_HEADER_SIZE,
  SHF_ALLOC,
  SHF_EXECINSTR,
  SHF_WRITE,
  SHN_ABS,
  SHN_UNDEF,
  SHT_DYNAMIC,
  SHT_DYNSYM,
  SHT_NOBITS,
  SHT_PROGBITS,
  SHT_REL,
  SHT_STRTAB,
  STB_GLOBAL,
  STB_LOCAL,
  STT_FUNC,
  STT_NOTYPE,
  STT_SECTION,
  SYMBOL_SIZE,
} from "./elf";
import { KNOWN_SYSCALLS } from "./syscalls";

export class LinkError extends ServiceError {
  constructor(message: string) {
    super(message);
  }
}
export class UnsupportedInstructionError extends LinkError {}
export class WritableSectionError extends LinkError {}
export class UnknownSyscallError extends LinkError {}
export class UnsupportedRelocationError extends LinkError {}
export class MissingEntrypointError extends LinkError {}

export interface InputObject {
  file: string;
  bytes: Uint8Array;
}

export interface LinkOptions {
  /** Name of the entry function; the runtime calls it with the serialized input. */
  entry?: string;
}

interface Placed {
  object: ElfObject;
  section: ElfSection;
  /** Offset inside the output section (.text or .rodata). */
  at: number;
}

interface Layout {
  text: Placed[];
  rodata: Placed[];
  textSize: number;
  rodataSize: number;
}

interface DynamicRelocation {
  offset: number;
  type: number;
  symbol: number;
}

const INSN = 8;
const OP_LDDW = 0x18;
const OP_CALL = 0x85;
const CLASS_ALU = 0x04;
const CLASS_JMP32 = 0x06;
const OPS_BYTESWAP = new Set([0xd4, 0xdc]);
const IGNORED_SECTION = /^\.(BTF|BTF\.ext|llvm_addrsig|comment|note\..*|debug_.*|eh_frame)$/;

const alignUp = (value: number, to: number): number => Math.ceil(value / Math.max(to, 1)) * Math.max(to, 1);

function isText(section: ElfSection): boolean {
  return (section.flags & SHF_ALLOC) !== 0 && (section.flags & SHF_EXECINSTR) !== 0;
}

function isReadOnlyData(section: ElfSection): boolean {
  return (section.flags & SHF_ALLOC) !== 0 && (section.flags & (SHF_EXECINSTR | SHF_WRITE)) === 0;
}

function refuseWritableSections(object: ElfObject): void {
  for (const section of object.sections) {
    if ((section.flags & (SHF_ALLOC | SHF_WRITE)) !== (SHF_ALLOC | SHF_WRITE) || section.size === 0) continue;
    if (IGNORED_SECTION.test(section.name)) continue;
    const symbols = object.symbols
      .filter((symbol) => symbol.sectionIndex === section.index && symbol.type !== STT_SECTION)
      .map((symbol) => symbol.name);
    throw new WritableSectionError(
      `${object.file}: writable section ${section.name} (${symbols.join(", ") || "unnamed data"}): ` +
        "SBPF v0 programs cannot have mutable globals; make them `const` or keep state in accounts",
    );
  }
}

function layOut(objects: ElfObject[]): Layout {
  const layout: Layout = { text: [], rodata: [], textSize: 0, rodataSize: 0 };
  for (const object of objects) {
    for (const section of object.sections) {
      if (section.size === 0 || IGNORED_SECTION.test(section.name)) continue;
      if (isText(section)) {
        const at = alignUp(layout.textSize, INSN);
        layout.text.push({ object, section, at });
        layout.textSize = at + section.size;
      } else if (isReadOnlyData(section)) {
        if (section.type === SHT_NOBITS) {
          throw new WritableSectionError(`${object.file}: ${section.name} has no file bytes (bss-like data)`);
        }
        const at = alignUp(layout.rodataSize, section.addralign);
        layout.rodata.push({ object, section, at });
        layout.rodataSize = at + section.size;
      }
    }
  }
  return layout;
}

function functionAt(placed: Placed, offset: number): string {
  const owner = placed.object.symbols.find(
    (symbol) =>
      symbol.type === STT_FUNC &&
      symbol.sectionIndex === placed.section.index &&
      offset >= symbol.value &&
      offset < symbol.value + Math.max(symbol.size, INSN),
  );
  return owner ? `function ${owner.name}` : `${placed.section.name}+0x${offset.toString(16)}`;
}

/** Refuses opcodes that SBPF v0 lacks or that LLVM's alu32 mode would give the wrong meaning. */
function checkInstructions(placed: Placed): void {
  const code = placed.section.data;
  for (let offset = 0; offset < code.length; offset += INSN) {
    const opcode = code[offset] ?? 0;
    const where = `${placed.object.file}: ${functionAt(placed, offset)}`;
    if ((opcode & 0x07) === CLASS_JMP32) {
      throw new UnsupportedInstructionError(
        `${where}: JMP32 opcode 0x${opcode.toString(16)}; SBPF v0 has no 32-bit jumps, compile with -mcpu=v2`,
      );
    }
    if ((opcode & 0x07) === CLASS_ALU && !OPS_BYTESWAP.has(opcode)) {
      throw new UnsupportedInstructionError(
        `${where}: 32-bit ALU opcode 0x${opcode.toString(16)}; SBPF sign-extends 32-bit results where LLVM ` +
          "assumes zero-extension, compile without alu32 (-mcpu=v2, no -mattr=+alu32)",
      );
    }
    if (opcode === OP_LDDW) offset += INSN;
  }
}

interface SymbolTarget {
  kind: "text" | "rodata" | "undefined";
  address: number;
  name: string;
}

class SymbolResolver {
  private readonly globals = new Map<string, { object: ElfObject; symbol: ElfSymbol }>();

  constructor(
    private readonly layout: Layout,
    private readonly textBase: number,
    private readonly rodataBase: number,
  ) {
    for (const placed of [...layout.text, ...layout.rodata]) {
      for (const symbol of placed.object.symbols) {
        if (symbol.bind !== STB_GLOBAL || symbol.sectionIndex !== placed.section.index) continue;
        const previous = this.globals.get(symbol.name);
        if (previous) {
          throw new LinkError(
            `${symbol.name} is defined in both ${previous.object.file} and ${placed.object.file}`,
          );
        }
        this.globals.set(symbol.name, { object: placed.object, symbol });
      }
    }
  }

  private placedSection(
    object: ElfObject,
    sectionIndex: number,
  ): { base: number; kind: "text" | "rodata" } | null {
    const inText = this.layout.text.find((p) => p.object === object && p.section.index === sectionIndex);
    if (inText) return { base: this.textBase + inText.at, kind: "text" };
    const inRodata = this.layout.rodata.find((p) => p.object === object && p.section.index === sectionIndex);
    if (inRodata) return { base: this.rodataBase + inRodata.at, kind: "rodata" };
    return null;
  }

  resolve(object: ElfObject, symbolIndex: number): SymbolTarget {
    const symbol = object.symbols[symbolIndex];
    if (!symbol) throw new LinkError(`${object.file}: relocation names missing symbol #${symbolIndex}`);
    const definition =
      symbol.sectionIndex === SHN_UNDEF && symbol.bind !== STB_LOCAL
        ? this.globals.get(symbol.name)
        : { object, symbol };
    if (!definition) return { kind: "undefined", address: 0, name: symbol.name };
    if (definition.symbol.sectionIndex === SHN_ABS) {
      throw new UnsupportedRelocationError(
        `${object.file}: absolute symbol ${symbol.name} cannot be relocated`,
      );
    }
    const placed = this.placedSection(definition.object, definition.symbol.sectionIndex);
    if (!placed) {
      throw new LinkError(
        `${object.file}: symbol ${symbol.name || "(section)"} lives in a section that is not linked`,
      );
    }
    return { kind: placed.kind, address: placed.base + definition.symbol.value, name: symbol.name };
  }

  has(name: string): boolean {
    return this.globals.has(name);
  }

  address(name: string): number {
    const found = this.globals.get(name);
    if (!found)
      throw new MissingEntrypointError(`entry function ${name} is not defined as a global function`);
    const target = this.resolve(found.object, found.object.symbols.indexOf(found.symbol));
    if (target.kind !== "text") throw new MissingEntrypointError(`${name} is not a function in .text`);
    return target.address;
  }
}

interface LinkedText {
  text: Uint8Array;
  relocations: DynamicRelocation[];
  syscalls: string[];
}

function relocateText(layout: Layout, resolver: SymbolResolver, textBase: number): LinkedText {
  const text = new Uint8Array(layout.textSize);
  const view = new DataView(text.buffer);
  const relocations: DynamicRelocation[] = [];
  const syscalls: string[] = [];
  for (const placed of layout.text) {
    text.set(placed.section.data, placed.at);
    for (const relocation of placed.object.relocations.get(placed.section.index) ?? []) {
      const at = placed.at + relocation.offset;
      const opcode = text[at];
      const where = `${placed.object.file}: ${functionAt(placed, relocation.offset)}`;
      const target = resolver.resolve(placed.object, relocation.symbolIndex);
      if (relocation.type === R_BPF_64_64) {
        if (opcode !== OP_LDDW) throw new UnsupportedRelocationError(`${where}: R_BPF_64_64 not on an lddw`);
        if (target.kind === "undefined")
          throw new LinkError(`${where}: undefined data symbol ${target.name}`);
        const addend = view.getUint32(at + 4, true) + view.getUint32(at + 12, true) * 2 ** 32;
        const address = target.address + addend;
        view.setUint32(at + 4, address % 2 ** 32, true);
        view.setUint32(at + 12, Math.floor(address / 2 ** 32), true);
        relocations.push({ offset: textBase + at, type: R_BPF_64_RELATIVE, symbol: 0 });
      } else if (relocation.type === R_BPF_64_32) {
        if (opcode !== OP_CALL) throw new UnsupportedRelocationError(`${where}: R_BPF_64_32 not on a call`);
        if (target.kind === "rodata") throw new LinkError(`${where}: call to data symbol ${target.name}`);
        if (target.kind === "text") {
          // Internal call: pc-relative immediate in instructions, resolved here so no relocation remains.
          view.setInt32(at + 4, (target.address - (textBase + at)) / INSN - 1, true);
        } else {
          if (!KNOWN_SYSCALLS.has(target.name)) {
            throw new UnknownSyscallError(
              `${where}: calls ${target.name}, which is neither defined in the inputs nor a Solana syscall`,
            );
          }
          if (!syscalls.includes(target.name)) syscalls.push(target.name);
          view.setInt32(at + 4, -1, true);
          relocations.push({
            offset: textBase + at,
            type: R_BPF_64_32,
            symbol: syscalls.indexOf(target.name) + 1,
          });
        }
      } else {
        throw new UnsupportedRelocationError(
          `${where}: relocation type ${relocation.type} is not supported in code`,
        );
      }
    }
  }
  return { text, relocations, syscalls };
}

function refuseDataRelocations(layout: Layout): void {
  for (const placed of layout.rodata) {
    if ((placed.object.relocations.get(placed.section.index) ?? []).length > 0) {
      throw new UnsupportedRelocationError(
        `${placed.object.file}: ${placed.section.name} holds addresses (pointer tables in read-only data); ` +
          "SBPF v0 cannot relocate them here, use indices or switch statements instead",
      );
    }
  }
}

function concatRodata(layout: Layout): Uint8Array {
  const out = new Uint8Array(layout.rodataSize);
  for (const placed of layout.rodata) out.set(placed.section.data, placed.at);
  return out;
}

class StringTable {
  private readonly parts: string[] = [""];
  private size = 1;
  add(name: string): number {
    const at = this.size;
    this.parts.push(name);
    this.size += Buffer.byteLength(name, "latin1") + 1;
    return at;
  }
  bytes(): Uint8Array {
    return Buffer.from(`${this.parts.join("\0")}\0`, "latin1");
  }
}

interface OutputSection {
  name: string;
  type: number;
  flags: number;
  data: Uint8Array;
  align: number;
  link?: number;
  info?: number;
  entsize?: number;
  offset: number;
}

function dynsymBytes(syscalls: string[], dynstr: StringTable): Uint8Array {
  const out = new Uint8Array((syscalls.length + 1) * SYMBOL_SIZE);
  const view = new DataView(out.buffer);
  syscalls.forEach((name, index) => {
    const at = (index + 1) * SYMBOL_SIZE;
    view.setUint32(at, dynstr.add(name), true);
    view.setUint8(at + 4, (STB_GLOBAL << 4) | STT_NOTYPE);
  });
  return out;
}

function relBytes(relocations: DynamicRelocation[]): Uint8Array {
  const out = new Uint8Array(relocations.length * REL_SIZE);
  const view = new DataView(out.buffer);
  relocations.forEach((relocation, index) => {
    view.setBigUint64(index * REL_SIZE, BigInt(relocation.offset), true);
    view.setBigUint64(
      index * REL_SIZE + 8,
      (BigInt(relocation.symbol) << 32n) | BigInt(relocation.type),
      true,
    );
  });
  return out;
}

function dynamicBytes(entries: [number, number][]): Uint8Array {
  const out = new Uint8Array(entries.length * DYN_SIZE);
  const view = new DataView(out.buffer);
  entries.forEach(([tag, value], index) => {
    view.setBigUint64(index * DYN_SIZE, BigInt(tag), true);
    view.setBigUint64(index * DYN_SIZE + 8, BigInt(value), true);
  });
  return out;
}

/** The .shstrtab bytes (the last section's data) and each section's name offset in it. */
function sectionNames(sections: OutputSection[]): { bytes: Uint8Array; offsets: number[] } {
  const table = new StringTable();
  const offsets = sections.map((section) => table.add(section.name));
  return { bytes: table.bytes(), offsets };
}

function writeElf(
  sections: OutputSection[],
  programHeaders: number[][],
  entry: number,
  shoff: number,
): Uint8Array {
  const out = new Uint8Array(shoff + (sections.length + 1) * SECTION_HEADER_SIZE);
  const view = new DataView(out.buffer);
  out.set([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]);
  view.setUint16(0x10, ET_DYN, true);
  view.setUint16(0x12, EM_BPF, true);
  view.setUint32(0x14, 1, true);
  view.setBigUint64(0x18, BigInt(entry), true);
  view.setBigUint64(0x20, BigInt(ELF_HEADER_SIZE), true);
  view.setBigUint64(0x28, BigInt(shoff), true);
  view.setUint16(0x34, ELF_HEADER_SIZE, true);
  view.setUint16(0x36, PROGRAM_HEADER_SIZE, true);
  view.setUint16(0x38, programHeaders.length, true);
  view.setUint16(0x3a, SECTION_HEADER_SIZE, true);
  view.setUint16(0x3c, sections.length + 1, true);
  view.setUint16(0x3e, sections.length, true);
  programHeaders.forEach(([type, flags, offset, size], index) => {
    const at = ELF_HEADER_SIZE + index * PROGRAM_HEADER_SIZE;
    view.setUint32(at, type ?? 0, true);
    view.setUint32(at + 4, flags ?? 0, true);
    for (const field of [8, 16, 24]) view.setBigUint64(at + field, BigInt(offset ?? 0), true);
    view.setBigUint64(at + 32, BigInt(size ?? 0), true);
    view.setBigUint64(at + 40, BigInt(size ?? 0), true);
    view.setBigUint64(at + 48, BigInt(type === PT_LOAD ? 0x1000 : 8), true);
  });
  const names = sectionNames(sections);
  sections.forEach((section, index) => {
    out.set(section.data, section.offset);
    const at = shoff + (index + 1) * SECTION_HEADER_SIZE;
    const loaded = (section.flags & SHF_ALLOC) !== 0;
    view.setUint32(at, names.offsets[index] ?? 0, true);
    view.setUint32(at + 4, section.type, true);
    view.setBigUint64(at + 8, BigInt(section.flags), true);
    view.setBigUint64(at + 0x10, BigInt(loaded ? section.offset : 0), true);
    view.setBigUint64(at + 0x18, BigInt(section.offset), true);
    view.setBigUint64(at + 0x20, BigInt(section.data.length), true);
    view.setUint32(at + 0x28, section.link ?? 0, true);
    view.setUint32(at + 0x2c, section.info ?? 0, true);
    view.setBigUint64(at + 0x30, BigInt(section.align), true);
    view.setBigUint64(at + 0x38, BigInt(section.entsize ?? 0), true);
  });
  return out;
}

/** Links BPF objects into an SBPF v0 shared object. Deterministic: the same inputs give the same bytes. */
export function linkSbf(inputs: InputObject[], options: LinkOptions = {}): Uint8Array {
  const entryName = options.entry ?? "entrypoint";
  const objects = inputs.map((input) => readElfObject(input.file, input.bytes));
  for (const object of objects) refuseWritableSections(object);
  const layout = layOut(objects);
  if (layout.textSize === 0) throw new MissingEntrypointError("no code: the inputs have no .text");
  for (const placed of layout.text) checkInstructions(placed);
  refuseDataRelocations(layout);

  const hasRodata = layout.rodataSize > 0;
  const programHeaderCount = hasRodata ? 4 : 3;
  const textOffset = alignUp(ELF_HEADER_SIZE + programHeaderCount * PROGRAM_HEADER_SIZE, INSN);
  const rodataOffset = alignUp(textOffset + layout.textSize, INSN);
  const resolver = new SymbolResolver(layout, textOffset, rodataOffset);
  if (!resolver.has(entryName))
    throw new MissingEntrypointError(`entry function ${entryName} is not defined`);
  const linked = relocateText(layout, resolver, textOffset);
  linked.relocations.sort((a, b) => a.offset - b.offset);

  const dynstr = new StringTable();
  const dynsym = dynsymBytes(linked.syscalls, dynstr);
  const dynstrBytes = dynstr.bytes();
  const relDyn = relBytes(linked.relocations);
  const relativeCount = linked.relocations.filter((r) => r.type === R_BPF_64_RELATIVE).length;

  const dynamicOffset = alignUp(rodataOffset + layout.rodataSize, INSN);
  const dynamicEntries = (symtab: number, strtab: number, rel: number): [number, number][] => [
    [DT_FLAGS, DF_TEXTREL],
    ...(relDyn.length > 0
      ? ([
          [DT_REL, rel],
          [DT_RELSZ, relDyn.length],
          [DT_RELENT, REL_SIZE],
          [DT_RELCOUNT, relativeCount],
        ] as [number, number][])
      : []),
    [DT_SYMTAB, symtab],
    [DT_SYMENT, SYMBOL_SIZE],
    [DT_STRTAB, strtab],
    [DT_STRSZ, dynstrBytes.length],
    [DT_TEXTREL, 0],
    [DT_NULL, 0],
  ];
  const dynamicSize = dynamicEntries(0, 0, 0).length * DYN_SIZE;
  const dynsymOffset = alignUp(dynamicOffset + dynamicSize, INSN);
  const dynstrOffset = dynsymOffset + dynsym.length;
  const relOffset = alignUp(dynstrOffset + dynstrBytes.length, INSN);
  const dynamic = dynamicBytes(dynamicEntries(dynsymOffset, dynstrOffset, relOffset));
  const shstrtabOffset = relOffset + relDyn.length;

  const sections: OutputSection[] = [
    {
      name: ".text",
      type: SHT_PROGBITS,
      flags: SHF_ALLOC | SHF_EXECINSTR,
      data: linked.text,
      align: INSN,
      offset: textOffset,
    },
    ...(hasRodata
      ? [
          {
            name: ".rodata",
            type: SHT_PROGBITS,
            flags: SHF_ALLOC,
            data: concatRodata(layout),
            align: 8,
            offset: rodataOffset,
          },
        ]
      : []),
  ];
  const dynstrIndex = sections.length + 3;
  const dynsymIndex = sections.length + 2;
  sections.push(
    {
      name: ".dynamic",
      type: SHT_DYNAMIC,
      flags: SHF_ALLOC,
      data: dynamic,
      align: 8,
      link: dynstrIndex,
      entsize: DYN_SIZE,
      offset: dynamicOffset,
    },
    {
      name: ".dynsym",
      type: SHT_DYNSYM,
      flags: SHF_ALLOC,
      data: dynsym,
      align: 8,
      link: dynstrIndex,
      info: 1,
      entsize: SYMBOL_SIZE,
      offset: dynsymOffset,
    },
    {
      name: ".dynstr",
      type: SHT_STRTAB,
      flags: SHF_ALLOC,
      data: dynstrBytes,
      align: 1,
      offset: dynstrOffset,
    },
    {
      name: ".rel.dyn",
      type: SHT_REL,
      flags: SHF_ALLOC,
      data: relDyn,
      align: 8,
      link: dynsymIndex,
      entsize: REL_SIZE,
      offset: relOffset,
    },
  );
  const shstrtab: OutputSection = {
    name: ".shstrtab",
    type: SHT_STRTAB,
    flags: 0,
    data: new Uint8Array(0),
    align: 1,
    offset: shstrtabOffset,
  };
  sections.push(shstrtab);
  shstrtab.data = sectionNames(sections).bytes;
  const shoff = alignUp(shstrtabOffset + shstrtab.data.length, 8);

  const dynamicEnd = relOffset + relDyn.length;
  const programHeaders = [
    [PT_LOAD, PF_R | PF_X, textOffset, layout.textSize],
    ...(hasRodata ? [[PT_LOAD, PF_R, rodataOffset, layout.rodataSize]] : []),
    [PT_LOAD, PF_R, dynamicOffset, dynamicEnd - dynamicOffset],
    [PT_DYNAMIC, PF_R, dynamicOffset, dynamicSize],
  ];
  return writeElf(sections, programHeaders, resolver.address(entryName), shoff);
}
