#include "price.h"
#include "errors.h"
#include "layout.h"

#define MIN_EXPONENT (-12)

/* a * b as a 128-bit (high, low) pair for b < 2^32, without 128-bit types (__multi3). */
static void multiply_wide(u64 a, u64 b, u64 *high, u64 *low) {
  u64 low_part = (a & 0xffffffffULL) * b;
  u64 middle = (a >> 32) * b + (low_part >> 32);
  *low = (middle << 32) | (low_part & 0xffffffffULL);
  *high = middle >> 32;
}

/* conf / price > max_bps / 10000, compared exactly as conf * 10000 > price * max_bps. */
static bool confidence_too_wide(u64 conf, u64 price, u64 max_bps) {
  u64 conf_high;
  u64 conf_low;
  u64 bound_high;
  u64 bound_low;
  multiply_wide(conf, BPS_DENOMINATOR, &conf_high, &conf_low);
  multiply_wide(price, max_bps, &bound_high, &bound_low);
  return conf_high > bound_high || (conf_high == bound_high && conf_low > bound_low);
}

u64 read_price(const u8 *config, const SolAccountInfo *account, i64 now, Price *out) {
  const u8 *data = account->data;
  if (!pubkey_eq(account->key, (const SolPubkey *)(config + CONFIG_PRICE_UPDATE)) ||
      !pubkey_eq(account->owner, (const SolPubkey *)(config + CONFIG_PRICE_OWNER)) ||
      account->data_len < PRICE_MIN_SIZE || discriminator(data) != ACCOUNT_PRICE_UPDATE_V2 ||
      data[PRICE_VERIFICATION_LEVEL] != VERIFICATION_FULL ||
      !bytes32_eq(data + PRICE_FEED_ID, config + CONFIG_FEED_ID)) {
    return fail(ERR_PriceAccountMismatch);
  }
  out->price = (i64)read_u64(data + PRICE_PRICE);
  out->exponent = (i32)read_u32(data + PRICE_EXPONENT);
  out->publish_time = (i64)read_u64(data + PRICE_PUBLISH_TIME);
  if (out->price <= 0 || out->exponent > 0 || out->exponent < MIN_EXPONENT) return fail(ERR_InvalidPrice);
  i64 max_age = (i64)read_u64(config + CONFIG_MAX_PRICE_AGE);
  if (out->publish_time < now - max_age) return fail(ERR_StalePrice);
  if (confidence_too_wide(read_u64(data + PRICE_CONF), (u64)out->price, read_u16(config + CONFIG_MAX_CONFIDENCE_BPS))) {
    return fail(ERR_PriceConfidenceTooWide);
  }
  return 0;
}

/* Checked a * b through 32-bit halves: LLVM turns the usual `b > MAX / a` test into a 128-bit multiply
 * (__multi3), which the BPF backend cannot emit. */
static bool multiply(u64 a, u64 b, u64 *out) {
  u64 a_high = a >> 32;
  u64 b_high = b >> 32;
  u64 a_low = a & 0xffffffffULL;
  u64 b_low = b & 0xffffffffULL;
  if (a_high != 0 && b_high != 0) return false;
  u64 cross = a_high * b_low + a_low * b_high;
  if (cross >> 32 != 0) return false;
  u64 low = a_low * b_low;
  u64 product = low + (cross << 32);
  if (product < low) return false;
  *out = product;
  return true;
}

u64 fee_lamports(u64 usd_micros, const Price *price, u64 *out) {
  /* lamports = usd_micros * 10^(3 - exponent) / price: 1e9 lamports per SOL, 1e6 micros per USD. */
  u64 scale = 1;
  for (i64 i = 0; i < 3 - price->exponent; i++) scale *= 10;
  u64 divisor = (u64)price->price;
  u64 whole;
  u64 part;
  if (!multiply(usd_micros, scale / divisor, &whole) || !multiply(usd_micros, scale % divisor, &part)) {
    return fail(ERR_MathOverflow);
  }
  u64 total = whole + part / divisor + (part % divisor != 0 ? 1 : 0);
  if (total < whole) return fail(ERR_MathOverflow);
  *out = total;
  return 0;
}
