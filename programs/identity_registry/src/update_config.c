/* update_config(new_admin: Pubkey, args: ConfigArgs): the admin changes the admin, the price source (a Pyth
 * receiver account in production), the maximum price age and the tier prices.
 * Accounts: admin (signer), config (writable). */
#include "accounts.h"
#include "config.h"
#include "errors.h"
#include "instructions.h"

u64 update_config(Context *ctx, Reader *args) {
  TRY(require_accounts(ctx, 2));
  const SolAccountInfo *admin = &ctx->accounts[0];
  const SolAccountInfo *config_account = &ctx->accounts[1];
  const u8 *new_admin = take_bytes(args, PUBKEY_LEN);
  ConfigArgs values;
  TRY(take_config_args(args, &values));
  if (!reader_done(args)) return fail(ERR_InvalidInstruction);
  const u8 *config;
  TRY(load_config(ctx, config_account, &config));
  TRY(require_admin(admin, config));
  TRY(require_writable(config_account));
  u8 *data = config_account->data;
  copy_bytes(data + CONFIG_ADMIN, new_admin, PUBKEY_LEN);
  store_config_args(data, &values);
  emit_config_updated(ctx, data);
  return 0;
}
