/* Entry: deserializes the runtime's input (loader v2/v3 "aligned" format) and dispatches on the 8-byte
 * Anchor instruction discriminator. */
#include "errors.h"
#include "instructions.h"
#include "layout.h"

#define NON_DUPLICATE 0xff
#define REALLOC_PADDING 10240

/* Fills ctx from the input buffer; refuses duplicated accounts (no instruction takes one account twice). */
static u64 deserialize(u8 *input, Context *ctx) {
  u64 count = read_u64(input);
  u8 *at = input + 8;
  if (count > MAX_ACCOUNTS) return fail(ERR_InvalidInstruction);
  for (u64 i = 0; i < count; i++) {
    if (at[0] != NON_DUPLICATE) return fail(ERR_DuplicateAccount);
    SolAccountInfo *account = &ctx->accounts[i];
    account->is_signer = at[1];
    account->is_writable = at[2];
    account->executable = at[3];
    account->key = (const SolPubkey *)(at + 8);
    account->owner = (SolPubkey *)(at + 40);
    account->lamports = (u64 *)(at + 72);
    account->data_len = read_u64(at + 80);
    account->data = at + 88;
    at += 88 + account->data_len + REALLOC_PADDING;
    at = (u8 *)(((u64)at + 7) & ~7ULL);
    account->rent_epoch = read_u64(at);
    at += 8;
  }
  ctx->account_count = count;
  ctx->data_len = read_u64(at);
  ctx->data = at + 8;
  ctx->program_id = (const SolPubkey *)(ctx->data + ctx->data_len);
  return 0;
}

u64 entrypoint(u8 *input) {
  Context *ctx = context();
  TRY(deserialize(input, ctx));
  if (ctx->data_len < 8) return fail(ERR_InvalidInstruction);
  Reader args = {ctx->data + 8, ctx->data_len - 8, true};
  switch (read_u64(ctx->data)) {
    case IX_COMMIT:
      return commit(ctx, &args);
    case IX_RESERVE:
      return reserve(ctx, &args);
    case IX_ASSERT_LAUNCH_ALLOWED:
      return assert_launch_allowed(ctx, &args);
    case IX_CLOSE_COMMITMENT:
      return close_commitment(ctx, &args);
    case IX_RENEW:
      return renew(ctx, &args);
    case IX_FOLD_PREVIEW:
      return fold_preview(ctx, &args);
    case IX_PUSH_PRICE:
      return push_price(ctx, &args);
    case IX_INITIALIZE:
      return initialize(ctx, &args);
    case IX_UPDATE_CONFIG:
      return update_config(ctx, &args);
    case IX_WITHDRAW_FEES:
      return withdraw_fees(ctx, &args);
    case IX_PROPOSE_ADMIN:
      return propose_admin(ctx, &args);
    case IX_ACCEPT_ADMIN:
      return accept_admin(ctx, &args);
    case IX_SET_DECISION_SIGNER:
      return set_decision_signer(ctx, &args);
    case IX_REVOKE_DECISION_SIGNER:
      return revoke_decision_signer(ctx, &args);
    default:
      return fail(ERR_InvalidInstruction);
  }
}
