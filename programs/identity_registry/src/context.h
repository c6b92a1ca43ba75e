/* The deserialized instruction: accounts, data and program id, kept on the heap (frames are 512 bytes). */
#ifndef CONTEXT_H
#define CONTEXT_H
#include "sol.h"

#define MAX_ACCOUNTS 16
#define SCRATCH_SIZE 1024

typedef struct {
  u8 name[64];
  u64 name_len;
  u8 ticker[16];
  u64 ticker_len;
  u8 name_hash[32];
  u8 ticker_hash[32];
} FoldedIdentity;

typedef struct {
  SolAccountInfo accounts[MAX_ACCOUNTS];
  u64 account_count;
  const u8 *data;
  u64 data_len;
  const SolPubkey *program_id;
  FoldedIdentity identity;
  /* Rent-exempt lamports per byte, 0 until read (the heap starts zeroed). */
  u64 rent_per_byte;
  /* Event and return-data bytes are assembled here. */
  u8 scratch[SCRATCH_SIZE];
} Context;

static inline Context *context(void) { return (Context *)HEAP_START; }

#define TRY(expression)                                                                                        \
  do {                                                                                                         \
    u64 failed_ = (expression);                                                                                \
    if (failed_ != 0) return failed_;                                                                          \
  } while (0)

#endif
