/* What both launch instructions share: their accounts, their arguments, the registry's answer. */
#ifndef LAUNCH_H
#define LAUNCH_H
#include "context.h"

typedef struct {
  SolAccountInfo *launcher;
  const SolAccountInfo *config;
  SolAccountInfo *mint;
  const SolAccountInfo *registry_config;
  const SolAccountInfo *reservation;
  const SolAccountInfo *registry_program;
  /* The instructions sysvar: signed launches only (NULL for launch_registry_only). */
  const SolAccountInfo *instructions;
  const SolAccountInfo *system_program;
} LaunchAccounts;

typedef struct {
  const u8 *name;
  u64 name_len;
  const u8 *ticker;
  u64 ticker_len;
  /* Signed launches only. */
  i64 expires_at;
  const u8 *nonce;
} LaunchArgs;

/* CPI assert_launch_allowed(name, ticker, launcher) into the registry (a refusal fails the whole transaction) and
 * keeps its LaunchCheck (holder, expires_at, name_hash, ticker_hash) in ctx->answer: exactly 104 bytes, set by the
 * registry program, the holder zero or the launcher; else RegistryAnswerInvalid. */
u64 check_with_registry(Context *ctx, const LaunchAccounts *accounts, const LaunchArgs *args);

/* The signed decision, read through the instructions sysvar: the Ed25519 instruction right before this one (which
 * must be top-level), with exactly one signature over a 265-byte message in its own data at the standard offsets.
 * Stores a pointer to that instruction's data (public key at 16, signature at 48, message at 112). */
u64 load_decision(const Context *ctx, const SolAccountInfo *instructions, const u8 **ed25519_data);

/* The decision message this launch expects, rebuilt into ctx->message from the launchpad config (cluster, registry),
 * this program's id, the registry's answer (the folded pair's keys), the launcher, the mint, allow, the expiry and the
 * nonce; then compared with the signed one: DecisionBlocked (decision byte not allow), DecisionMismatch (any other
 * byte). */
u64 require_decision(Context *ctx, const u8 *config, const LaunchAccounts *accounts, const LaunchArgs *args,
                     const u8 *signed_message);

/* `signer` is a non-zero key of the registry config's decision signer set with valid_from <= now < valid_until. */
u64 require_trusted_signer(const u8 *registry_config, const u8 *signer, i64 now);

#endif
