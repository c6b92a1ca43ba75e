/* The USD/SOL price from a Pyth PriceUpdateV2 account, and the fee of a tier in lamports. */
#ifndef PRICE_H
#define PRICE_H
#include "context.h"

typedef struct {
  i64 price;
  i64 exponent;
  i64 publish_time;
} Price;

/* Checks address and owner against the config, type, feed id, verification level, sign, age and confidence. */
u64 read_price(const u8 *config, const SolAccountInfo *account, i64 now, Price *out);

/* ceil(usd_micros / 1e6 * 1e9 / (price * 10^exponent)) without 128-bit math. */
u64 fee_lamports(u64 usd_micros, const Price *price, u64 *out);

#endif
