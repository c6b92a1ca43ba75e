// Borsh, the encoding of the programs' instruction arguments (as their IDLs declare them): little-endian integers,
// a string as its u32 byte length and UTF-8 bytes, fixed arrays as their bytes. Pure and browser-safe.

export function concatBytes(...parts: Uint8Array[]): Uint8Array {
  const bytes = new Uint8Array(parts.reduce((length, part) => length + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    bytes.set(part, offset);
    offset += part.length;
  }
  return bytes;
}

function littleEndian(length: number, write: (view: DataView) => void): Uint8Array {
  const bytes = new Uint8Array(length);
  write(new DataView(bytes.buffer));
  return bytes;
}

export const u8 = (value: number): Uint8Array => Uint8Array.of(value);
export const u16 = (value: number) => littleEndian(2, (view) => view.setUint16(0, value, true));
export const u32 = (value: number) => littleEndian(4, (view) => view.setUint32(0, value, true));
export const i32 = (value: number) => littleEndian(4, (view) => view.setInt32(0, value, true));
export const u64 = (value: bigint) => littleEndian(8, (view) => view.setBigUint64(0, value, true));
export const i64 = (value: bigint) => littleEndian(8, (view) => view.setBigInt64(0, value, true));

export function borshString(text: string): Uint8Array {
  const utf8 = new TextEncoder().encode(text);
  return concatBytes(u32(utf8.length), utf8);
}
