/* Borsh reading (instruction arguments) and writing (events, return data), bounds-checked. */
#ifndef BORSH_H
#define BORSH_H
#include "sol.h"

typedef struct {
  const u8 *at;
  u64 left;
  bool ok;
} Reader;

typedef struct {
  u8 *at;
  u64 len;
  u64 cap;
} Writer;

const u8 *take_bytes(Reader *reader, u64 len);
u64 take_u64(Reader *reader);
/* A Borsh string (u32 length + bytes); returns its bytes and stores the length. */
const u8 *take_string(Reader *reader, u64 *len);
/* True when every argument was present and nothing is left over. */
static inline bool reader_done(const Reader *reader) { return reader->ok && reader->left == 0; }

/* Inline, so constant lengths become 8-byte moves (see copy_bytes). Callers size the buffer for their
 * largest record; a write past `cap` is dropped rather than corrupting memory. */
static inline void put_bytes(Writer *writer, const void *bytes, u64 len) {
  if (writer->len + len > writer->cap) return;
  copy_bytes(writer->at + writer->len, bytes, len);
  writer->len += len;
}

static inline void put_u64(Writer *writer, u64 value) {
  if (writer->len + 8 > writer->cap) return;
  write_u64(writer->at + writer->len, value);
  writer->len += 8;
}

static inline void put_string(Writer *writer, const u8 *bytes, u64 len) {
  if (writer->len + 4 > writer->cap) return;
  write_u32(writer->at + writer->len, (u32)len);
  writer->len += 4;
  put_bytes(writer, bytes, len);
}

#endif
