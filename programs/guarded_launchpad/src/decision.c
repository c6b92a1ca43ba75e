/* The signed launch decision: found through the instructions sysvar by exact layout, then compared byte for byte
 * with the message this launch rebuilds from its own accounts and arguments. The Ed25519 program has already
 * verified the signature (a failed verification fails the transaction); this file makes sure that what it verified
 * is this launch's decision: the Relay "wrong offset" bug was a program trusting bytes that the verification never
 * covered. */
#include "accounts.h"
#include "errors.h"
#include "launch.h"

#define SYSVAR_ACCOUNT_META_SIZE 33

typedef struct {
  const u8 *program_id;
  const u8 *data;
  u64 data_len;
} SysvarInstruction;

/* Instruction `index` of the serialized instructions sysvar (`len` bytes without the trailing current index):
 * u16 count, u16 offsets[count], then per instruction u16 account count, (u8 flags, pubkey) per account, program id,
 * u16 data length, data. False when out of bounds. */
static bool instruction_at(const u8 *sysvar, u64 len, u64 index, SysvarInstruction *out) {
  u64 count = read_u16(sysvar);
  if (index >= count || 2 + 2 * count > len) return false;
  u64 at = read_u16(sysvar + 2 + 2 * index);
  if (at + 2 > len) return false;
  at += 2 + (u64)read_u16(sysvar + at) * SYSVAR_ACCOUNT_META_SIZE;
  if (at + PUBKEY_LEN + 2 > len) return false;
  out->program_id = sysvar + at;
  out->data_len = read_u16(sysvar + at + PUBKEY_LEN);
  out->data = sysvar + at + PUBKEY_LEN + 2;
  return at + PUBKEY_LEN + 2 + out->data_len <= len;
}

u64 load_decision(const Context *ctx, const SolAccountInfo *instructions, const u8 **ed25519_data) {
  if (!pubkey_eq(instructions->key, &INSTRUCTIONS_SYSVAR_ID) || instructions->data_len < 4) {
    return fail(ERR_InvalidInstructionsSysvar);
  }
  const u8 *sysvar = instructions->data;
  u64 len = instructions->data_len - 2;
  u64 current = read_u16(sysvar + len);
  SysvarInstruction instruction;
  /* Called by another program, the current top-level instruction is that program's. */
  if (!instruction_at(sysvar, len, current, &instruction) ||
      !bytes32_eq(instruction.program_id, ctx->program_id->bytes)) {
    return fail(ERR_NotTopLevel);
  }
  if (current == 0 || !instruction_at(sysvar, len, current - 1, &instruction) ||
      !bytes32_eq(instruction.program_id, ED25519_PROGRAM_ID.bytes)) {
    return fail(ERR_DecisionMissing);
  }
  const u8 *data = instruction.data;
  if (instruction.data_len != ED25519_DATA_SIZE || data[ED25519_NUM_SIGNATURES] != 1 ||
      read_u16(data + ED25519_SIGNATURE_OFFSET) != ED25519_SIGNATURE ||
      read_u16(data + ED25519_SIGNATURE_INSTRUCTION) != ED25519_THIS_INSTRUCTION ||
      read_u16(data + ED25519_PUBKEY_OFFSET) != ED25519_PUBKEY ||
      read_u16(data + ED25519_PUBKEY_INSTRUCTION) != ED25519_THIS_INSTRUCTION ||
      read_u16(data + ED25519_MESSAGE_OFFSET) != ED25519_MESSAGE ||
      read_u16(data + ED25519_MESSAGE_SIZE) != DECISION_MESSAGE_SIZE ||
      read_u16(data + ED25519_MESSAGE_INSTRUCTION) != ED25519_THIS_INSTRUCTION) {
    return fail(ERR_DecisionMalformed);
  }
  *ed25519_data = data;
  return 0;
}

u64 require_decision(Context *ctx, const u8 *config, const LaunchAccounts *accounts, const LaunchArgs *args,
                     const u8 *signed_message) {
  if (signed_message[DECISION_DECISION] != DECISION_ALLOW) return fail(ERR_DecisionBlocked);
  u8 *message = ctx->message;
  copy_bytes(message + DECISION_DOMAIN, "idprot/launch/v1", DECISION_DOMAIN_LEN);
  copy_bytes(message + DECISION_CLUSTER, config + LAUNCHPAD_CONFIG_CLUSTER, 32);
  copy_bytes(message + DECISION_REGISTRY_PROGRAM, config + LAUNCHPAD_CONFIG_REGISTRY_PROGRAM, PUBKEY_LEN);
  copy_bytes(message + DECISION_LAUNCHPAD_PROGRAM, ctx->program_id, PUBKEY_LEN);
  copy_bytes(message + DECISION_NAME_HASH, ctx->answer + LAUNCH_CHECK_NAME_HASH, 32);
  copy_bytes(message + DECISION_TICKER_HASH, ctx->answer + LAUNCH_CHECK_TICKER_HASH, 32);
  copy_bytes(message + DECISION_LAUNCHER, accounts->launcher->key, PUBKEY_LEN);
  copy_bytes(message + DECISION_MINT, accounts->mint->key, PUBKEY_LEN);
  message[DECISION_DECISION] = DECISION_ALLOW;
  write_u64(message + DECISION_EXPIRES_AT, (u64)args->expires_at);
  copy_bytes(message + DECISION_NONCE, args->nonce, DECISION_NONCE_LEN);
  /* 33 eight-byte words and the last byte. */
  u64 difference = message[DECISION_MESSAGE_SIZE - 1] ^ signed_message[DECISION_MESSAGE_SIZE - 1];
  for (u64 i = 0; i + 8 <= DECISION_MESSAGE_SIZE; i += 8) {
    difference |= read_u64(message + i) ^ read_u64(signed_message + i);
  }
  return difference == 0 ? 0 : fail(ERR_DecisionMismatch);
}
