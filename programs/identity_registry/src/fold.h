/* Fold v1 (the service's normalization standard), on-chain. */
#ifndef FOLD_H
#define FOLD_H
#include "context.h"

/* Folds `len` input bytes into `out`; returns the folded length, or cap + 1 once it exceeds `cap`. */
u64 fold_v1(const u8 *input, u64 len, u8 *out, u64 cap);

/* Folds name and ticker, checks the bounds (BadLength) and hashes both with keccak256. */
u64 fold_identity(const u8 *name, u64 name_len, const u8 *ticker, u64 ticker_len, FoldedIdentity *out);

#endif
