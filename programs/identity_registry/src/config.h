/* The admin-set part of the registry config, shared by initialize and update_config. */
#ifndef CONFIG_H
#define CONFIG_H
#include "borsh.h"
#include "context.h"
#include "layout.h"

typedef struct {
  const u8 *price_update;
  const u8 *price_owner;
  const u8 *feed_id;
  u64 max_price_age_secs;
  u64 tier_usd_micros[TIER_COUNT];
  u64 min_commitment_slots;
  u64 max_confidence_bps;
} ConfigArgs;

/* Reads Borsh `ConfigArgs` and checks its ranges. */
u64 take_config_args(Reader *reader, ConfigArgs *args);
void store_config_args(u8 *config, const ConfigArgs *args);
void emit_config_updated(Context *ctx, const u8 *config);
/* Index of the tier for `duration_seconds`, or TIER_COUNT when it is not a tier. */
u64 tier_index(u64 duration_seconds);

#endif
