/* System Program CPIs: creating an account owned by this program (the config PDA, a launch's mint). */
#ifndef SYSTEM_H
#define SYSTEM_H
#include "context.h"

typedef struct {
  const SolAccountInfo *payer;
  SolAccountInfo *target;
  const SolAccountInfo *system_program;
  u64 space;
  /* Seeds with the bump when the target is a PDA (the program signs); NULL when the target signed the transaction. */
  const SolSignerSeeds *signer;
} AccountCreation;

/* Creates a rent-exempt account owned by this program; also works when someone pre-funded the address. */
u64 create_owned_account(const Context *ctx, const AccountCreation *creation);

#endif
