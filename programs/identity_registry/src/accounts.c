#include "accounts.h"
#include "errors.h"
#include "layout.h"

const SolPubkey SYSTEM_PROGRAM_ID = {{0}};
const SolPubkey BPF_LOADER_UPGRADEABLE_ID = {{0x02, 0xa8, 0xf6, 0x91, 0x4e, 0x88, 0xa1, 0xb0, 0xe2, 0x10, 0x15,
                                              0x3e, 0xf7, 0x63, 0xae, 0x2b, 0x00, 0xc2, 0xb9, 0x3d, 0x16, 0xc1,
                                              0x24, 0xd2, 0xc0, 0x53, 0x7a, 0x10, 0x04, 0x80, 0x00, 0x00}};

u64 require_accounts(const Context *ctx, u64 count) {
  return ctx->account_count < count ? fail(ERR_NotEnoughAccounts) : 0;
}

u64 require_signer(const SolAccountInfo *account) { return account->is_signer ? 0 : fail(ERR_MissingSigner); }

u64 require_writable(const SolAccountInfo *account) {
  return account->is_writable ? 0 : fail(ERR_AccountNotWritable);
}

u64 require_system_program(const SolAccountInfo *account) {
  return pubkey_eq(account->key, &SYSTEM_PROGRAM_ID) ? 0 : fail(ERR_InvalidProgramId);
}

u64 require_program_account(const Context *ctx, const SolAccountInfo *account, u64 discriminator_value, u64 size) {
  if (!pubkey_eq(account->owner, ctx->program_id) || account->data_len < size ||
      discriminator(account->data) != discriminator_value) {
    return fail(ERR_InvalidAccount);
  }
  return 0;
}

u64 require_pda(const Context *ctx, const SolAccountInfo *account, const SolBytes *seeds, u64 count, u8 *bump) {
  SolPubkey expected;
  if (sol_try_find_program_address(seeds, count, ctx->program_id, &expected, bump) != 0) {
    return fail(ERR_InvalidPda);
  }
  return pubkey_eq(account->key, &expected) ? 0 : fail(ERR_InvalidPda);
}

u64 load_config(const Context *ctx, const SolAccountInfo *account, const u8 **config) {
  TRY(require_program_account(ctx, account, ACCOUNT_CONFIG, CONFIG_SIZE));
  *config = account->data;
  return 0;
}

u64 require_admin(const SolAccountInfo *admin, const u8 *config) {
  TRY(require_signer(admin));
  return pubkey_eq(admin->key, (const SolPubkey *)(config + CONFIG_ADMIN)) ? 0 : fail(ERR_Unauthorized);
}

bool is_uninitialized(const Context *ctx, const SolAccountInfo *account) {
  return !pubkey_eq(account->owner, ctx->program_id) && account->data_len == 0;
}
