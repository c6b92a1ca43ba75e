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
