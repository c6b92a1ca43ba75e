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

void put_bytes(Writer *writer, const void *bytes, u64 len);
void put_u64(Writer *writer, u64 value);
void put_u32(Writer *writer, u32 value);
void put_string(Writer *writer, const u8 *bytes, u64 len);

#endif
