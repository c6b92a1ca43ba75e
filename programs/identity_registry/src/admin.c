/* Two-step admin hand-over, as EVM's Ownable2Step: the admin proposes a key, and only a transaction signed by
 * that key makes it admin, so a mistyped key never loses the role. Proposing the zero key or the admin itself
 * cancels a pending proposal; a new proposal replaces it.
 * propose_admin(new_admin: Pubkey), accounts: admin (signer), config (writable).
 * accept_admin(), accounts: pending_admin (signer), config (writable). */
#include "accounts.h"
#include "errors.h"
#include "events.h"
#include "instructions.h"
#include "layout.h"

static void emit_admin_event(Context *ctx, u64 event_discriminator, const u8 *first, const u8 *second) {
  Writer event;
  begin_event(ctx, event_discriminator, &event);
  put_bytes(&event, first, PUBKEY_LEN);
  put_bytes(&event, second, PUBKEY_LEN);
  emit(&event);
}

u64 propose_admin(Context *ctx, Reader *args) {
  TRY(require_accounts(ctx, 2));
  const SolAccountInfo *admin = &ctx->accounts[0];
  const SolAccountInfo *config_account = &ctx->accounts[1];
  const u8 *new_admin = take_bytes(args, PUBKEY_LEN);
  if (!reader_done(args)) return fail(ERR_InvalidInstruction);
  const u8 *config;
  TRY(load_config(ctx, config_account, &config));
  TRY(require_admin(admin, config));
  TRY(require_writable(config_account));
  u8 *data = config_account->data;
  if (bytes32_eq(new_admin, admin->key->bytes)) {
    sol_memset_(data + CONFIG_PENDING_ADMIN, 0, PUBKEY_LEN);
  } else {
    copy_bytes(data + CONFIG_PENDING_ADMIN, new_admin, PUBKEY_LEN);
  }
  emit_admin_event(ctx, EVENT_ADMIN_TRANSFER_STARTED, data + CONFIG_ADMIN, data + CONFIG_PENDING_ADMIN);
  return 0;
}

u64 accept_admin(Context *ctx, Reader *args) {
  TRY(require_accounts(ctx, 2));
  const SolAccountInfo *pending = &ctx->accounts[0];
  const SolAccountInfo *config_account = &ctx->accounts[1];
  if (!reader_done(args)) return fail(ERR_InvalidInstruction);
  const u8 *config;
  TRY(load_config(ctx, config_account, &config));
  TRY(require_signer(pending));
  TRY(require_writable(config_account));
  const SolPubkey *proposed = (const SolPubkey *)(config + CONFIG_PENDING_ADMIN);
  if (pubkey_eq(proposed, &SYSTEM_PROGRAM_ID) || !pubkey_eq(pending->key, proposed)) return fail(ERR_Unauthorized);
  u8 *data = config_account->data;
  u8 previous[PUBKEY_LEN];
  copy_bytes(previous, data + CONFIG_ADMIN, PUBKEY_LEN);
  copy_bytes(data + CONFIG_ADMIN, pending->key, PUBKEY_LEN);
  sol_memset_(data + CONFIG_PENDING_ADMIN, 0, PUBKEY_LEN);
  emit_admin_event(ctx, EVENT_ADMIN_TRANSFERRED, previous, data + CONFIG_ADMIN);
  return 0;
}
