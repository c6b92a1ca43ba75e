/* One handler per instruction; `args` reads the Borsh arguments after the 8-byte discriminator. */
#ifndef INSTRUCTIONS_H
#define INSTRUCTIONS_H
#include "borsh.h"
#include "context.h"

u64 initialize(Context *ctx, Reader *args);
u64 launch(Context *ctx, Reader *args);
u64 launch_registry_only(Context *ctx, Reader *args);

#endif
