/* The deserialized instruction and the buffers a launch assembles, kept on the heap (frames are 512 bytes). */
#ifndef CONTEXT_H
#define CONTEXT_H
#include "layout.h"

#define MAX_ACCOUNTS 8
/* assert_launch_allowed's data: discriminator, two Borsh strings and a pubkey; the strings come from this
 * instruction's own data, which a transaction keeps under 1,232 bytes. */
#define CPI_DATA_CAP 1280

typedef struct {
  SolAccountInfo accounts[MAX_ACCOUNTS];
  u64 account_count;
  const u8 *data;
  u64 data_len;
  const SolPubkey *program_id;
  /* Rent-exempt lamports per byte, 0 until read (the heap starts zeroed). */
  u64 rent_per_byte;
  /* The registry's LaunchCheck and the program that set it. */
  SolPubkey answer_program;
  u8 answer[LAUNCH_CHECK_SIZE];
  /* The decision message this launch expects, rebuilt from its own accounts and arguments (8-byte padded). */
  u8 message[DECISION_MESSAGE_SIZE + 7];
  u8 cpi_data[CPI_DATA_CAP];
} Context;

static inline Context *context(void) { return (Context *)HEAP_START; }

#define TRY(expression)                                                                                        \
  do {                                                                                                         \
    u64 failed_ = (expression);                                                                                \
    if (failed_ != 0) return failed_;                                                                          \
  } while (0)

#endif
