/* System Program CPIs: PDA creation and lamport transfers. */
#ifndef SYSTEM_H
#define SYSTEM_H
#include "context.h"

/* Rent-exempt minimum balance for `space` bytes, from the rent sysvar. */
u64 rent_exempt_minimum(u64 space, u64 *out);

typedef struct {
  const SolAccountInfo *payer;
  SolAccountInfo *target;
  const SolAccountInfo *system_program;
  u64 space;
  /* Seeds including the bump: the program signs for the new address. */
  SolSignerSeeds signer;
} PdaCreation;

/* Creates a program-owned PDA account; also works when someone pre-funded the address. */
u64 create_pda(const Context *ctx, const PdaCreation *creation);

u64 transfer_lamports(const SolAccountInfo *from, const SolAccountInfo *to, const SolAccountInfo *system_program,
                      u64 lamports, const SolSignerSeeds *signer);

#endif
