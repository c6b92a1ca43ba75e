/* Program ids and the account checks shared by the instructions. */
#ifndef ACCOUNTS_H
#define ACCOUNTS_H
#include "context.h"

extern const SolPubkey SYSTEM_PROGRAM_ID;
extern const SolPubkey BPF_LOADER_UPGRADEABLE_ID;
extern const SolPubkey INSTRUCTIONS_SYSVAR_ID;
extern const SolPubkey ED25519_PROGRAM_ID;

u64 require_accounts(const Context *ctx, u64 count);
u64 require_signer(const SolAccountInfo *account);
u64 require_writable(const SolAccountInfo *account);
u64 require_system_program(const SolAccountInfo *account);
/* Owned by `owner`, at least `size` bytes, and of the type named by `discriminator`. */
u64 require_owned_account(const SolAccountInfo *account, const SolPubkey *owner, u64 discriminator, u64 size);
bool is_uninitialized(const Context *ctx, const SolAccountInfo *account);

#endif
