/* Trusted decision signers: up to DECISION_SIGNER_COUNT keys whose Ed25519 launch decisions a launch program may
 * accept, each for valid_from <= t < valid_until. Stored in the config so a later launch program reads them from
 * the registry it already trusts.
 * set_decision_signer(signer: Pubkey, valid_from: i64, valid_until: i64): admin; updates the key's entry, else
 * takes an empty one, else one whose window has ended (valid_until <= now), else DecisionSignerSetFull.
 * revoke_decision_signer(signer: Pubkey): admin; ends the key's window now (valid_until = min(valid_until, now),
 * never later than it was, so no past decision becomes valid).
 * Accounts (both): admin (signer), config (writable). */
#include "accounts.h"
#include "errors.h"
#include "events.h"
#include "instructions.h"
#include "layout.h"

/* Loads the config for an admin change and returns it writable. */
static u64 admin_config(Context *ctx, u8 **config) {
  TRY(require_accounts(ctx, 2));
  const SolAccountInfo *admin = &ctx->accounts[0];
  const SolAccountInfo *config_account = &ctx->accounts[1];
  const u8 *data;
  TRY(load_config(ctx, config_account, &data));
  TRY(require_admin(admin, data));
  TRY(require_writable(config_account));
  *config = config_account->data;
  return 0;
}

static u8 *entry_of(u8 *config, const u8 *signer) {
  for (u64 i = 0; i < DECISION_SIGNER_COUNT; i++) {
    u8 *entry = decision_signer_entry(config, i);
    if (bytes32_eq(entry + DECISION_SIGNER_KEY, signer)) return entry;
  }
  return NULL;
}

/* An empty entry first, else one whose window has ended. */
static u8 *free_entry(u8 *config, i64 now) {
  u8 *ended = NULL;
  for (u64 i = 0; i < DECISION_SIGNER_COUNT; i++) {
    u8 *entry = decision_signer_entry(config, i);
    if (bytes32_eq(entry + DECISION_SIGNER_KEY, SYSTEM_PROGRAM_ID.bytes)) return entry;
    if (ended == NULL && (i64)read_u64(entry + DECISION_SIGNER_VALID_UNTIL) <= now) ended = entry;
  }
  return ended;
}

static i64 clock_now(void) {
  SolClock clock;
  sol_get_clock_sysvar(&clock);
  return clock.unix_timestamp;
}

static void emit_signer_event(Context *ctx, u64 event_discriminator, const u8 *entry, bool with_valid_from) {
  Writer event;
  begin_event(ctx, event_discriminator, &event);
  put_bytes(&event, entry + DECISION_SIGNER_KEY, PUBKEY_LEN);
  if (with_valid_from) put_bytes(&event, entry + DECISION_SIGNER_VALID_FROM, 8);
  put_bytes(&event, entry + DECISION_SIGNER_VALID_UNTIL, 8);
  emit(&event);
}

u64 set_decision_signer(Context *ctx, Reader *args) {
  const u8 *signer = take_bytes(args, PUBKEY_LEN);
  i64 valid_from = (i64)take_u64(args);
  i64 valid_until = (i64)take_u64(args);
  if (!reader_done(args)) return fail(ERR_InvalidInstruction);
  u8 *config;
  TRY(admin_config(ctx, &config));
  if (bytes32_eq(signer, SYSTEM_PROGRAM_ID.bytes) || valid_from >= valid_until) return fail(ERR_InvalidConfig);
  u8 *entry = entry_of(config, signer);
  if (entry == NULL) entry = free_entry(config, clock_now());
  if (entry == NULL) return fail(ERR_DecisionSignerSetFull);
  copy_bytes(entry + DECISION_SIGNER_KEY, signer, PUBKEY_LEN);
  write_u64(entry + DECISION_SIGNER_VALID_FROM, (u64)valid_from);
  write_u64(entry + DECISION_SIGNER_VALID_UNTIL, (u64)valid_until);
  emit_signer_event(ctx, EVENT_DECISION_SIGNER_SET, entry, true);
  return 0;
}

u64 revoke_decision_signer(Context *ctx, Reader *args) {
  const u8 *signer = take_bytes(args, PUBKEY_LEN);
  if (!reader_done(args)) return fail(ERR_InvalidInstruction);
  u8 *config;
  TRY(admin_config(ctx, &config));
  u8 *entry = bytes32_eq(signer, SYSTEM_PROGRAM_ID.bytes) ? NULL : entry_of(config, signer);
  if (entry == NULL) return fail(ERR_DecisionSignerNotFound);
  i64 now = clock_now();
  if ((i64)read_u64(entry + DECISION_SIGNER_VALID_UNTIL) > now) write_u64(entry + DECISION_SIGNER_VALID_UNTIL, (u64)now);
  emit_signer_event(ctx, EVENT_DECISION_SIGNER_REVOKED, entry, false);
  return 0;
}
