// ELF64 little-endian constants and a reader for the relocatable objects clang emits for `-target bpf`.
// Only what the SBF linker needs: sections, symbols and REL relocations.
import { ServiceError } from "../../core/errors/serviceError";

export const EM_BPF = 247;
export const ET_REL = 1;
export const ET_DYN = 3;

export const SHT_NULL = 0;
export const SHT_PROGBITS = 1;
export const SHT_SYMTAB = 2;
export const SHT_STRTAB = 3;
export const SHT_RELA = 4;
export const SHT_DYNAMIC = 6;
export const SHT_NOBITS = 8;
export const SHT_REL = 9;
export const SHT_DYNSYM = 11;

export const SHF_WRITE = 0x1;
export const SHF_ALLOC = 0x2;
export const SHF_EXECINSTR = 0x4;

export const SHN_UNDEF = 0;
export const SHN_ABS = 0xfff1;

export const STT_NOTYPE = 0;
export const STT_FUNC = 2;
export const STT_SECTION = 3;
export const STB_LOCAL = 0;
export const STB_GLOBAL = 1;

export const PT_LOAD = 1;
export const PT_DYNAMIC = 2;
export const PF_X = 1;
export const PF_R = 4;

export const DT_NULL = 0;
export const DT_STRTAB = 5;
export const DT_SYMTAB = 6;
export const DT_STRSZ = 10;
export const DT_SYMENT = 11;
export const DT_REL = 17;
export const DT_RELSZ = 18;
export const DT_RELENT = 19;
export const DT_TEXTREL = 22;
export const DT_FLAGS = 30;
export const DF_TEXTREL = 0x4;
export const DT_RELCOUNT = 0x6ffffffa;

/** BPF relocation kinds (LLVM's ELFRelocs/BPF.def and the Solana loader's extra one). */
export const R_BPF_NONE = 0;
export const R_BPF_64_64 = 1;
export const R_BPF_64_ABS64 = 2;
export const R_BPF_64_ABS32 = 3;
export const R_BPF_64_NODYLD32 = 4;
export const R_BPF_64_RELATIVE = 8;
export const R_BPF_64_32 = 10;

export const ELF_HEADER_SIZE = 64;
export const PROGRAM_HEADER_SIZE = 56;
export const SECTION_HEADER_SIZE = 64;
export const SYMBOL_SIZE = 24;
export const REL_SIZE = 16;
export const DYN_SIZE = 16;

export class ElfFormatError extends ServiceError {
  constructor(file: string, problem: string) {
    super(`${file}: ${problem}`);
  }
}

export interface ElfSection {
  index: number;
  name: string;
  type: number;
  flags: number;
  offset: number;
  size: number;
  link: number;
  info: number;
  addralign: number;
  entsize: number;
  /** File bytes; empty for SHT_NOBITS. */
  data: Uint8Array;
}

export interface ElfSymbol {
  name: string;
  type: number;
  bind: number;
  sectionIndex: number;
  value: number;
  size: number;
}

export interface ElfRelocation {
  offset: number;
  type: number;
  symbolIndex: number;
}

export interface ElfObject {
  file: string;
  sections: ElfSection[];
  symbols: ElfSymbol[];
  /** Relocations keyed by the index of the section they apply to. */
  relocations: Map<number, ElfRelocation[]>;
}

function cString(bytes: Uint8Array, start: number): string {
  let end = start;
  while (end < bytes.length && bytes[end] !== 0) end++;
  return Buffer.from(bytes.subarray(start, end)).toString("latin1");
}

function u64AsNumber(view: DataView, at: number): number {
  const value = view.getBigUint64(at, true);
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new RangeError(`64-bit field at ${at} is too large`);
  return Number(value);
}

function readSectionHeaders(file: string, bytes: Uint8Array, view: DataView): ElfSection[] {
  const shoff = u64AsNumber(view, 0x28);
  const shentsize = view.getUint16(0x3a, true);
  const shnum = view.getUint16(0x3c, true);
  const shstrndx = view.getUint16(0x3e, true);
  if (shentsize !== SECTION_HEADER_SIZE) throw new ElfFormatError(file, `section header size ${shentsize}`);
  if (shoff + shnum * SECTION_HEADER_SIZE > bytes.length) {
    throw new ElfFormatError(file, "section header table runs past the end of the file");
  }
  const raw = Array.from({ length: shnum }, (_, index) => {
    const at = shoff + index * SECTION_HEADER_SIZE;
    const type = view.getUint32(at + 4, true);
    const offset = u64AsNumber(view, at + 0x18);
    const size = u64AsNumber(view, at + 0x20);
    if (type !== SHT_NOBITS && offset + size > bytes.length) {
      throw new ElfFormatError(file, `section ${index} runs past the end of the file`);
    }
    return {
      index,
      nameOffset: view.getUint32(at, true),
      type,
      flags: u64AsNumber(view, at + 8),
      offset,
      size,
      link: view.getUint32(at + 0x28, true),
      info: view.getUint32(at + 0x2c, true),
      addralign: u64AsNumber(view, at + 0x30),
      entsize: u64AsNumber(view, at + 0x38),
      data: type === SHT_NOBITS ? new Uint8Array(0) : bytes.subarray(offset, offset + size),
    };
  });
  const names = raw[shstrndx]?.data;
  if (!names) throw new ElfFormatError(file, "missing section name table");
  return raw.map(({ nameOffset, ...section }) => ({ ...section, name: cString(names, nameOffset) }));
}

function readSymbols(file: string, sections: ElfSection[]): ElfSymbol[] {
  const symtab = sections.find((section) => section.type === SHT_SYMTAB);
  if (!symtab) return [];
  const strings = sections[symtab.link]?.data;
  if (!strings) throw new ElfFormatError(file, "symbol table has no string table");
  const view = new DataView(symtab.data.buffer, symtab.data.byteOffset, symtab.data.byteLength);
  return Array.from({ length: symtab.size / SYMBOL_SIZE }, (_, index) => {
    const at = index * SYMBOL_SIZE;
    const info = view.getUint8(at + 4);
    return {
      name: cString(strings, view.getUint32(at, true)),
      type: info & 0xf,
      bind: info >> 4,
      sectionIndex: view.getUint16(at + 6, true),
      value: u64AsNumber(view, at + 8),
      size: u64AsNumber(view, at + 16),
    };
  });
}

function readRelocations(file: string, sections: ElfSection[]): Map<number, ElfRelocation[]> {
  const byTarget = new Map<number, ElfRelocation[]>();
  for (const section of sections) {
    if (section.type === SHT_RELA) {
      throw new ElfFormatError(file, `RELA relocations (${section.name}) are not produced by clang for BPF`);
    }
    if (section.type !== SHT_REL) continue;
    const view = new DataView(section.data.buffer, section.data.byteOffset, section.data.byteLength);
    const entries = Array.from({ length: section.size / REL_SIZE }, (_, index) => {
      const info = view.getBigUint64(index * REL_SIZE + 8, true);
      return {
        offset: u64AsNumber(view, index * REL_SIZE),
        type: Number(info & 0xffffffffn),
        symbolIndex: Number(info >> 32n),
      };
    });
    byTarget.set(section.info, entries);
  }
  return byTarget;
}

/** Parses an ELF64 relocatable BPF object (the output of `clang -target bpf -c`). */
export function readElfObject(file: string, bytes: Uint8Array): ElfObject {
  if (bytes.length < ELF_HEADER_SIZE || cString(bytes.subarray(1, 4), 0) !== "ELF" || bytes[0] !== 0x7f) {
    throw new ElfFormatError(file, "not an ELF file");
  }
  if (bytes[4] !== 2 || bytes[5] !== 1) throw new ElfFormatError(file, "not a 64-bit little-endian ELF");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint16(0x10, true) !== ET_REL) throw new ElfFormatError(file, "not a relocatable object (.o)");
  if (view.getUint16(0x12, true) !== EM_BPF) {
    throw new ElfFormatError(file, "not a BPF object: compile with `clang -target bpf`");
  }
  const sections = readSectionHeaders(file, bytes, view);
  return {
    file,
    sections,
    symbols: readSymbols(file, sections),
    relocations: readRelocations(file, sections),
  };
}
