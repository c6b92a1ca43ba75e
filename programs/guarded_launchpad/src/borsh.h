/* Borsh reading of instruction arguments, bounds-checked. */
#ifndef BORSH_H
#define BORSH_H
#include "sol.h"

typedef struct {
  const u8 *at;
  u64 left;
  bool ok;
} Reader;

const u8 *take_bytes(Reader *reader, u64 len);
u64 take_u64(Reader *reader);
/* A Borsh string (u32 length + bytes); returns its bytes and stores the length. */
const u8 *take_string(Reader *reader, u64 *len);
/* True when every argument was present and nothing is left over. */
static inline bool reader_done(const Reader *reader) { return reader->ok && reader->left == 0; }

#endif
