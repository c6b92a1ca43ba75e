#include "borsh.h"

const u8 *take_bytes(Reader *reader, u64 len) {
  if (!reader->ok || reader->left < len) {
    reader->ok = false;
    return NULL;
  }
  const u8 *start = reader->at;
  reader->at += len;
  reader->left -= len;
  return start;
}

u64 take_u64(Reader *reader) {
  const u8 *bytes = take_bytes(reader, 8);
  return bytes ? read_u64(bytes) : 0;
}

const u8 *take_string(Reader *reader, u64 *len) {
  const u8 *prefix = take_bytes(reader, 4);
  *len = prefix ? read_u32(prefix) : 0;
  return take_bytes(reader, *len);
}

void put_bytes(Writer *writer, const void *bytes, u64 len) {
  /* Callers size the scratch buffer for their largest record; overflow would be a program bug. */
  if (writer->len + len > writer->cap) return;
  copy_bytes(writer->at + writer->len, bytes, len);
  writer->len += len;
}

void put_u64(Writer *writer, u64 value) { put_bytes(writer, &value, 8); }

void put_u32(Writer *writer, u32 value) { put_bytes(writer, &value, 4); }

void put_string(Writer *writer, const u8 *bytes, u64 len) {
  put_u32(writer, (u32)len);
  put_bytes(writer, bytes, len);
}
