/* Account checks shared by the instructions: signer, writable, owner, type (discriminator), PDA address. */
#ifndef ACCOUNTS_H
#define ACCOUNTS_H
#include "context.h"

extern const SolPubkey SYSTEM_PROGRAM_ID;
extern const SolPubkey BPF_LOADER_UPGRADEABLE_ID;

u64 require_accounts(const Context *ctx, u64 count);
u64 require_signer(const SolAccountInfo *account);
u64 require_writable(const SolAccountInfo *account);
u64 require_system_program(const SolAccountInfo *account);
/* Owned by this program, at least `size` bytes, and of the type named by `discriminator`. */
u64 require_program_account(const Context *ctx, const SolAccountInfo *account, u64 discriminator, u64 size);
/* Most seeds (without the bump) of a PDA this program derives. */
#define PDA_MAX_SEEDS 3
/* The program address of `seeds` (which exclude the bump) with `bump` under `program_id`: false when that bump
 * gives no address (the hash lies on the curve), as with sol_create_program_address. */
bool program_address(const SolBytes *seeds, u64 count, u8 bump, const SolPubkey *program_id, SolPubkey *out);
/* The canonical PDA (highest bump from 255 down to 1 that gives an address), as with
 * sol_try_find_program_address; non-zero when none does. */
u64 find_program_address(const SolBytes *seeds, u64 count, const SolPubkey *program_id, SolPubkey *out, u8 *bump);
/* The account is the canonical PDA for `seeds` (which exclude the bump); stores the bump found. */
u64 require_pda(const Context *ctx, const SolAccountInfo *account, const SolBytes *seeds, u64 count, u8 *bump);
/* Loads the registry config (PDA ["config"], created by initialize). */
u64 load_config(const Context *ctx, const SolAccountInfo *account, const u8 **config);
/* The signer is the admin stored in the config. */
u64 require_admin(const SolAccountInfo *admin, const u8 *config);
bool is_uninitialized(const Context *ctx, const SolAccountInfo *account);

#endif
