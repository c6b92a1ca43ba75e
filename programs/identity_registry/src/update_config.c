/* update_config(args: ConfigArgs): the admin changes the price source (a Pyth receiver account in production),
 * the maximum price age, the tier prices, the minimum commitment age and the price confidence bound. The admin
 * role itself moves only in two steps: propose_admin, then accept_admin by the proposed key (admin.c).
 * Accounts: admin (signer), config (writable). */
#include "accounts.h"
#include "config.h"
#include "errors.h"
#include "instructions.h"

u64 update_config(Context *ctx, Reader *args) {
  TRY(require_accounts(ctx, 2));
  const SolAccountInfo *admin = &ctx->accounts[0];
  const SolAccountInfo *config_account = &ctx->accounts[1];
  ConfigArgs values;
  TRY(take_config_args(args, &values));
  if (!reader_done(args)) return fail(ERR_InvalidInstruction);
  const u8 *config;
  TRY(load_config(ctx, config_account, &config));
  TRY(require_admin(admin, config));
  TRY(require_writable(config_account));
  u8 *data = config_account->data;
  store_config_args(data, &values);
  emit_config_updated(ctx, data);
  return 0;
}
