/* renew(duration_seconds: u64): the holder extends a live reservation by another tier, only in the
 * 12 hours before it expires; the new expiry is the old expiry plus the duration.
 * Accounts: launcher (signer, writable), config, price_update, reservation (writable), wallet (writable),
 * treasury (writable), system_program. */
#include "accounts.h"
#include "errors.h"
#include "events.h"
#include "instructions.h"
#include "layout.h"
#include "reservation.h"

/* The wallet slot that tracks this live reservation (same account, same expiry); renewal moves it too. */
static u8 *wallet_slot_of(u8 *wallet, const SolPubkey *reservation, u64 expires_at) {
  for (u64 i = 0; i < WALLET_SLOT_COUNT; i++) {
    u8 *slot = wallet + WALLET_SLOTS + i * WALLET_SLOT_SIZE;
    if (bytes32_eq(slot + WALLET_SLOT_RESERVATION, reservation->bytes) &&
        read_u64(slot + WALLET_SLOT_EXPIRES_AT) == expires_at) {
      return slot;
    }
  }
  return NULL;
}

u64 renew(Context *ctx, Reader *args) {
  TRY(require_accounts(ctx, 7));
  const SolAccountInfo *launcher = &ctx->accounts[0];
  const SolAccountInfo *config_account = &ctx->accounts[1];
  const SolAccountInfo *price_account = &ctx->accounts[2];
  const SolAccountInfo *reservation = &ctx->accounts[3];
  const SolAccountInfo *wallet = &ctx->accounts[4];
  const SolAccountInfo *treasury = &ctx->accounts[5];
  const SolAccountInfo *system_program = &ctx->accounts[6];
  u64 duration_seconds = take_u64(args);
  if (!reader_done(args)) return fail(ERR_InvalidInstruction);

  TRY(require_signer(launcher));
  TRY(require_writable(launcher));
  TRY(require_writable(reservation));
  TRY(require_writable(wallet));
  const u8 *config;
  TRY(load_config(ctx, config_account, &config));
  TRY(require_program_account(ctx, reservation, ACCOUNT_RESERVATION, RESERVATION_SIZE));
  TRY(require_program_account(ctx, wallet, ACCOUNT_WALLET_STATE, WALLET_SIZE));
  u8 *data = reservation->data;
  if (!pubkey_eq((const SolPubkey *)(data + RESERVATION_LAUNCHER), launcher->key) ||
      !pubkey_eq((const SolPubkey *)(wallet->data + WALLET_LAUNCHER), launcher->key)) {
    return fail(ERR_NotReservationHolder);
  }
  SolClock clock;
  sol_get_clock_sysvar(&clock);
  Charge charge;
  TRY(quote_charge(config, price_account, duration_seconds, &clock, &charge));
  i64 expires_at = (i64)read_u64(data + RESERVATION_EXPIRES_AT);
  if (charge.now >= expires_at || charge.now < expires_at - RENEWAL_WINDOW_SECONDS) {
    return fail(ERR_RenewalWindowClosed);
  }
  u8 *slot = wallet_slot_of(wallet->data, reservation->key, (u64)expires_at);
  if (slot == NULL) return fail(ERR_InvalidAccount);
  TRY(pay_fee(config, launcher, treasury, system_program, charge.fee_lamports));

  u64 new_expiry = (u64)(expires_at + (i64)duration_seconds);
  write_u64(data + RESERVATION_EXPIRES_AT, new_expiry);
  write_u64(data + RESERVATION_FEE_LAMPORTS, read_u64(data + RESERVATION_FEE_LAMPORTS) + charge.fee_lamports);
  write_u64(slot + WALLET_SLOT_EXPIRES_AT, new_expiry);

  Writer event;
  begin_event(ctx, EVENT_RESERVATION_RENEWED, &event);
  put_bytes(&event, reservation->key, PUBKEY_LEN);
  put_bytes(&event, data + RESERVATION_LAUNCHER, RESERVATION_RESERVED_AT - RESERVATION_LAUNCHER);
  put_u64(&event, (u64)expires_at);
  put_u64(&event, new_expiry);
  put_u64(&event, duration_seconds);
  put_u64(&event, charge.fee_lamports);
  emit(&event);
  return 0;
}
