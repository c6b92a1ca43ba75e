/* The Solana runtime's C ABI for SBPF v0 programs: integer types, syscalls, the serialized input,
 * account infos and cross-program invocation. Freestanding: no libc. */
#ifndef SOL_H
#define SOL_H

typedef unsigned char u8;
typedef unsigned short u16;
typedef unsigned int u32;
typedef unsigned long long u64;
typedef long long i64;
typedef int i32;
typedef _Bool bool;
#define true 1
#define false 0
#define NULL ((void *)0)

#define PUBKEY_LEN 32
typedef struct {
  u8 bytes[PUBKEY_LEN];
} SolPubkey;

/* Byte slices, as syscalls (logs, hashes, PDA seeds) take them. */
typedef struct {
  const u8 *addr;
  u64 len;
} SolBytes;

typedef struct {
  const SolBytes *seeds;
  u64 len;
} SolSignerSeeds;

/* Account view handed to sol_invoke_signed_c; every pointer points into the input buffer. */
typedef struct {
  const SolPubkey *key;
  u64 *lamports;
  u64 data_len;
  u8 *data;
  SolPubkey *owner;
  u64 rent_epoch;
  /* Booleans as bytes (same ABI): the runtime serializes them as 0/1, so they are copied unconverted. */
  u8 is_signer;
  u8 is_writable;
  u8 executable;
} SolAccountInfo;

typedef struct {
  const SolPubkey *pubkey;
  bool is_writable;
  bool is_signer;
} SolAccountMeta;

typedef struct {
  const SolPubkey *program_id;
  const SolAccountMeta *accounts;
  u64 account_len;
  const u8 *data;
  u64 data_len;
} SolInstruction;

typedef struct {
  u64 slot;
  i64 epoch_start_timestamp;
  u64 epoch;
  u64 leader_schedule_epoch;
  i64 unix_timestamp;
} SolClock;

/* `exemption_threshold` is an f64 on the wire; the program only compares its bit pattern. */
typedef struct {
  u64 lamports_per_byte_year;
  u64 exemption_threshold_bits;
  u8 burn_percent;
} SolRent;

/* Syscalls: resolved by name (murmur3) when the loader relocates the program. */
void sol_log_(const char *message, u64 len);
void sol_log_data(const SolBytes *fields, u64 count);
u64 sol_keccak256(const SolBytes *fields, u64 count, u8 *out);
u64 sol_sha256(const SolBytes *fields, u64 count, u8 *out);
/* 0 when `point` (32 bytes) decompresses to a point of curve `curve_id`, 1 when it does not. */
u64 sol_curve_validate_point(u64 curve_id, const u8 *point);
u64 sol_invoke_signed_c(const SolInstruction *instruction, const SolAccountInfo *accounts, u64 account_count,
                        const SolSignerSeeds *signers, u64 signer_count);
void sol_set_return_data(const u8 *data, u64 len);
u64 sol_get_clock_sysvar(SolClock *out);
u64 sol_get_rent_sysvar(SolRent *out);
void sol_memcpy_(void *dst, const void *src, u64 len);
void sol_memset_(void *dst, u8 value, u64 len);

/* The 32 KiB heap: large temporaries live here because LLVM limits BPF stack frames to 512 bytes. */
#define HEAP_START 0x300000000ULL

/* Little-endian field access. Borsh fields after an 8-byte discriminator are often unaligned; SBPF loads
 * and stores need no alignment, while a memcpy-based access would be split by LLVM into single bytes. */
static inline u64 read_u64(const u8 *at) { return *(const u64 *)at; }
static inline void write_u64(u8 *at, u64 value) { *(u64 *)at = value; }
static inline u16 read_u16(const u8 *at) { return *(const u16 *)at; }
static inline u32 read_u32(const u8 *at) { return *(const u32 *)at; }
static inline void write_u32(u8 *at, u32 value) { *(u32 *)at = value; }

/* 32-byte equality (pubkeys, hashes, feed ids) in four 8-byte compares. */
bool bytes32_eq(const u8 *a, const u8 *b);
static inline bool pubkey_eq(const SolPubkey *a, const SolPubkey *b) { return bytes32_eq(a->bytes, b->bytes); }
/* Copies of known multiple-of-8 sizes (pubkeys, hashes, integers) as 8-byte moves: a sol_memcpy_ syscall
 * costs at least 10 CU plus the call, four moves cost 8 instructions. */
static inline void copy_bytes(void *dst, const void *src, u64 len) {
  if (__builtin_constant_p(len) && len % 8 == 0 && len <= 64) {
    for (u64 i = 0; i < len; i += 8) write_u64((u8 *)dst + i, read_u64((const u8 *)src + i));
  } else {
    sol_memcpy_(dst, src, len);
  }
}

#endif
