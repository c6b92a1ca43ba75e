#include "accounts.h"
#include "errors.h"

const SolPubkey SYSTEM_PROGRAM_ID = {{0}};
const SolPubkey BPF_LOADER_UPGRADEABLE_ID = {{0x02, 0xa8, 0xf6, 0x91, 0x4e, 0x88, 0xa1, 0xb0, 0xe2, 0x10, 0x15,
                                              0x3e, 0xf7, 0x63, 0xae, 0x2b, 0x00, 0xc2, 0xb9, 0x3d, 0x16, 0xc1,
                                              0x24, 0xd2, 0xc0, 0x53, 0x7a, 0x10, 0x04, 0x80, 0x00, 0x00}};
/* Sysvar1nstructions1111111111111111111111111 */
const SolPubkey INSTRUCTIONS_SYSVAR_ID = {{0x06, 0xa7, 0xd5, 0x17, 0x18, 0x7b, 0xd1, 0x66, 0x35, 0xda, 0xd4,
                                           0x04, 0x55, 0xfd, 0xc2, 0xc0, 0xc1, 0x24, 0xc6, 0x8f, 0x21, 0x56,
                                           0x75, 0xa5, 0xdb, 0xba, 0xcb, 0x5f, 0x08, 0x00, 0x00, 0x00}};
/* Ed25519SigVerify111111111111111111111111111 */
const SolPubkey ED25519_PROGRAM_ID = {{0x03, 0x7d, 0x46, 0xd6, 0x7c, 0x93, 0xfb, 0xbe, 0x12, 0xf9, 0x42,
                                       0x8f, 0x83, 0x8d, 0x40, 0xff, 0x05, 0x70, 0x74, 0x49, 0x27, 0xf4,
                                       0x8a, 0x64, 0xfc, 0xca, 0x70, 0x44, 0x80, 0x00, 0x00, 0x00}};

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

u64 require_owned_account(const SolAccountInfo *account, const SolPubkey *owner, u64 discriminator_value, u64 size) {
  if (!pubkey_eq(account->owner, owner) || account->data_len < size ||
      discriminator(account->data) != discriminator_value) {
    return fail(ERR_InvalidAccount);
  }
  return 0;
}

bool is_uninitialized(const Context *ctx, const SolAccountInfo *account) {
  return !pubkey_eq(account->owner, ctx->program_id) && account->data_len == 0;
}
