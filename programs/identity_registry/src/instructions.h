/* One handler per instruction; `args` reads the Borsh arguments after the 8-byte discriminator. */
#ifndef INSTRUCTIONS_H
#define INSTRUCTIONS_H
#include "borsh.h"
#include "context.h"

u64 initialize(Context *ctx, Reader *args);
u64 update_config(Context *ctx, Reader *args);
u64 push_price(Context *ctx, Reader *args);
u64 reserve(Context *ctx, Reader *args);
u64 renew(Context *ctx, Reader *args);
u64 fold_preview(Context *ctx, Reader *args);
u64 withdraw_fees(Context *ctx, Reader *args);
u64 commit(Context *ctx, Reader *args);
u64 close_commitment(Context *ctx, Reader *args);
u64 assert_launch_allowed(Context *ctx, Reader *args);
u64 propose_admin(Context *ctx, Reader *args);
u64 accept_admin(Context *ctx, Reader *args);
u64 set_decision_signer(Context *ctx, Reader *args);
u64 revoke_decision_signer(Context *ctx, Reader *args);

#endif
