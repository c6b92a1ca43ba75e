/* Steps shared by reserve and renew: time, the tier fee, the per-wallet state and the fee payment. */
#ifndef RESERVATION_H
#define RESERVATION_H
#include "context.h"
#include "price.h"

typedef struct {
  i64 now;
  u64 duration_seconds;
  u64 fee_lamports;
  Price price;
} Charge;

/* Validates the duration, reads the price at the clock's time and computes the fee of the duration's tier. */
u64 quote_charge(const u8 *config, const SolAccountInfo *price_account, u64 duration_seconds, const SolClock *clock,
                 Charge *out);

/* Pays the fee from the launcher into the configured treasury. */
u64 pay_fee(const u8 *config, const SolAccountInfo *launcher, const SolAccountInfo *treasury,
            const SolAccountInfo *system_program, u64 fee_lamports);

#endif
