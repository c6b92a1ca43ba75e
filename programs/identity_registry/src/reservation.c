#include "reservation.h"
#include "accounts.h"
#include "config.h"
#include "errors.h"
#include "layout.h"
#include "system.h"

u64 quote_charge(const u8 *config, const SolAccountInfo *price_account, u64 duration_seconds, const SolClock *clock,
                 Charge *out) {
  u64 tier = tier_index(duration_seconds);
  if (tier == TIER_COUNT) return fail(ERR_InvalidDuration);
  out->now = clock->unix_timestamp;
  out->duration_seconds = duration_seconds;
  TRY(read_price(config, price_account, out->now, &out->price));
  return fee_lamports(read_u64(config + CONFIG_TIER_USD_MICROS + 8 * tier), &out->price, &out->fee_lamports);
}

u64 pay_fee(const u8 *config, const SolAccountInfo *launcher, const SolAccountInfo *treasury,
            const SolAccountInfo *system_program, u64 fee_lamports) {
  if (!pubkey_eq(treasury->key, (const SolPubkey *)(config + CONFIG_TREASURY))) return fail(ERR_InvalidPda);
  TRY(require_writable(treasury));
  TRY(require_system_program(system_program));
  return transfer_lamports(launcher, treasury, system_program, fee_lamports, NULL);
}
