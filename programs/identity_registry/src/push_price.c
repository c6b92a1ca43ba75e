/* push_price(price: i64, conf: u64, exponent: i32, publish_time: i64): writes a PriceUpdateV2-layout account
 * at PDA ["price"] for local clusters, where no Pyth receiver runs. Only while the config names this program
 * as the price owner: once the admin points the config at the Pyth receiver, this account is refused.
 * Accounts: admin (signer, writable), config, price_update (writable), system_program. */
#include "accounts.h"
#include "errors.h"
#include "instructions.h"
#include "layout.h"
#include "system.h"

u64 push_price(Context *ctx, Reader *args) {
  TRY(require_accounts(ctx, 4));
  const SolAccountInfo *admin = &ctx->accounts[0];
  const SolAccountInfo *config_account = &ctx->accounts[1];
  SolAccountInfo *price_account = &ctx->accounts[2];
  const SolAccountInfo *system_program = &ctx->accounts[3];
  const u8 *price = take_bytes(args, 8);
  const u8 *conf = take_bytes(args, 8);
  const u8 *exponent = take_bytes(args, 4);
  const u8 *publish_time = take_bytes(args, 8);
  if (!reader_done(args)) return fail(ERR_InvalidInstruction);
  const u8 *config;
  TRY(load_config(ctx, config_account, &config));
  TRY(require_admin(admin, config));
  TRY(require_writable(admin));
  TRY(require_writable(price_account));
  TRY(require_system_program(system_program));
  if (!pubkey_eq((const SolPubkey *)(config + CONFIG_PRICE_OWNER), ctx->program_id)) {
    return fail(ERR_LocalPriceDisabled);
  }
  if (!pubkey_eq(price_account->key, (const SolPubkey *)(config + CONFIG_PRICE_UPDATE))) {
    return fail(ERR_PriceAccountMismatch);
  }
  if (is_uninitialized(ctx, price_account)) {
    u8 bump;
    SolBytes seeds[2] = {{(const u8 *)"price", 5}, {&bump, 1}};
    TRY(require_pda(ctx, price_account, seeds, 1, &bump));
    PdaCreation creation = {admin, price_account, system_program, PRICE_ACCOUNT_SIZE, {seeds, 2}};
    TRY(create_pda(ctx, &creation));
  } else {
    TRY(require_program_account(ctx, price_account, ACCOUNT_PRICE_UPDATE_V2, PRICE_ACCOUNT_SIZE));
  }
  SolClock clock;
  sol_get_clock_sysvar(&clock);
  u8 *data = price_account->data;
  write_u64(data, ACCOUNT_PRICE_UPDATE_V2);
  copy_bytes(data + PRICE_WRITE_AUTHORITY, admin->key, PUBKEY_LEN);
  data[PRICE_VERIFICATION_LEVEL] = VERIFICATION_FULL;
  copy_bytes(data + PRICE_FEED_ID, config + CONFIG_FEED_ID, 32);
  copy_bytes(data + PRICE_PRICE, price, 8);
  copy_bytes(data + PRICE_CONF, conf, 8);
  copy_bytes(data + PRICE_EXPONENT, exponent, 4);
  copy_bytes(data + PRICE_PUBLISH_TIME, publish_time, 8);
  copy_bytes(data + PRICE_PREV_PUBLISH_TIME, publish_time, 8);
  copy_bytes(data + PRICE_EMA_PRICE, price, 8);
  copy_bytes(data + PRICE_EMA_CONF, conf, 8);
  write_u64(data + PRICE_POSTED_SLOT, clock.slot);
  return 0;
}
