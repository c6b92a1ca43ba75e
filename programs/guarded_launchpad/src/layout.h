/* Account layouts (Borsh, as in the IDL), Anchor discriminators (the first 8 bytes of sha256("global:<name>") and
 * sha256("account:<Name>"), read as little-endian u64), the identity registry's layouts this program reads, the
 * signed launch decision message and the Ed25519 instruction it must arrive in.
 * test/programs/guardedLaunchpad.test.ts recomputes every value below against both IDLs and the registry's
 * layout.h. */
#ifndef LAYOUT_H
#define LAYOUT_H
#include "sol.h"

#define IX_INITIALIZE 0xed9b980d1f6dafafULL
#define IX_LAUNCH 0x3d4a4516e15df199ULL
#define IX_LAUNCH_REGISTRY_ONLY 0xcb52eff3c6ad98f8ULL

#define ACCOUNT_LAUNCHPAD_CONFIG 0x18f8339fae713dcdULL
#define ACCOUNT_LAUNCH 0x26d555cea3333390ULL

/* LaunchpadConfig, PDA ["config"], created once by initialize. registry_config is the registry's ["config"] PDA,
 * derived once at initialize so a launch compares addresses instead of deriving it again. */
#define LAUNCHPAD_CONFIG_ADMIN 8
#define LAUNCHPAD_CONFIG_REGISTRY_PROGRAM 40
#define LAUNCHPAD_CONFIG_REGISTRY_CONFIG 72
#define LAUNCHPAD_CONFIG_CLUSTER 104
#define LAUNCHPAD_CONFIG_BUMP 136
#define LAUNCHPAD_CONFIG_SIZE 137

/* Launch, written into the mint account the launch creates (a fresh keypair, owned by this program).
 * decision_signer is the key that signed the allow decision, zero for a registry-only launch. */
#define LAUNCH_LAUNCHER 8
#define LAUNCH_NAME_HASH 40
#define LAUNCH_TICKER_HASH 72
#define LAUNCH_DECISION_SIGNER 104
#define LAUNCH_LAUNCHED_AT 136
#define LAUNCH_SIZE 144

/* The identity registry (programs/identity_registry/src/layout.h). */
#define REGISTRY_IX_ASSERT_LAUNCH_ALLOWED 0xa599098e85dfb913ULL
#define REGISTRY_ACCOUNT_CONFIG 0x82ccfa1ee0aa0c9bULL
#define REGISTRY_CONFIG_DECISION_SIGNERS 252
#define REGISTRY_DECISION_SIGNER_COUNT 4
#define REGISTRY_DECISION_SIGNER_KEY 0
#define REGISTRY_DECISION_SIGNER_VALID_FROM 32
#define REGISTRY_DECISION_SIGNER_VALID_UNTIL 40
#define REGISTRY_DECISION_SIGNER_SIZE 48
#define REGISTRY_CONFIG_SIZE (REGISTRY_CONFIG_DECISION_SIGNERS + REGISTRY_DECISION_SIGNER_COUNT * REGISTRY_DECISION_SIGNER_SIZE)

/* assert_launch_allowed's return data, the registry IDL's LaunchCheck. */
#define LAUNCH_CHECK_HOLDER 0
#define LAUNCH_CHECK_EXPIRES_AT 32
#define LAUNCH_CHECK_NAME_HASH 40
#define LAUNCH_CHECK_TICKER_HASH 72
#define LAUNCH_CHECK_SIZE 104

/* The signed launch decision (all integers little-endian). */
#define DECISION_DOMAIN 0
#define DECISION_DOMAIN_LEN 16
#define DECISION_CLUSTER 16
#define DECISION_REGISTRY_PROGRAM 48
#define DECISION_LAUNCHPAD_PROGRAM 80
#define DECISION_NAME_HASH 112
#define DECISION_TICKER_HASH 144
#define DECISION_LAUNCHER 176
#define DECISION_MINT 208
#define DECISION_DECISION 240
#define DECISION_EXPIRES_AT 241
#define DECISION_NONCE 249
#define DECISION_NONCE_LEN 16
#define DECISION_MESSAGE_SIZE 265
#define DECISION_ALLOW 1

/* The Ed25519 program's instruction data: num_signatures u8, padding u8, then per signature 7 u16 offsets
 * (signature, its instruction index, public key, its instruction index, message, message size, its instruction
 * index), then the data. Accepted only as web3.js / solana-sdk lay out one signature over data in the same
 * instruction: public key at 16, signature at 48, message at 112. */
#define ED25519_NUM_SIGNATURES 0
#define ED25519_SIGNATURE_OFFSET 2
#define ED25519_SIGNATURE_INSTRUCTION 4
#define ED25519_PUBKEY_OFFSET 6
#define ED25519_PUBKEY_INSTRUCTION 8
#define ED25519_MESSAGE_OFFSET 10
#define ED25519_MESSAGE_SIZE 12
#define ED25519_MESSAGE_INSTRUCTION 14
#define ED25519_PUBKEY 16
#define ED25519_SIGNATURE 48
#define ED25519_MESSAGE 112
#define ED25519_DATA_SIZE (ED25519_MESSAGE + DECISION_MESSAGE_SIZE)
#define ED25519_THIS_INSTRUCTION 0xffff

static inline u64 discriminator(const u8 *data) { return read_u64(data); }

#endif
