/* guarded_launchpad: a reference launch program that refuses a copycat launch itself, through the identity
 * registry (assert_launch_allowed by CPI) and, on the signed path, the service's Ed25519 launch decision.
 * Entry: deserializes the runtime's input (loader v2/v3 "aligned" format) and dispatches on the 8-byte Anchor
 * instruction discriminator. */
#include "errors.h"
#include "instructions.h"

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
    case IX_LAUNCH:
      return launch(ctx, &args);
    case IX_LAUNCH_REGISTRY_ONLY:
      return launch_registry_only(ctx, &args);
    case IX_INITIALIZE:
      return initialize(ctx, &args);
    default:
      return fail(ERR_InvalidInstruction);
  }
}
