/* cpi_caller: a test-only program that calls another program through a cross-program invocation, the way a
 * multisig (Squads) or a launchpad program calls the identity registry. Never deployed by `npm start`.
 *
 * Accounts: [callee program, ...accounts forwarded to it with their signer and writable flags].
 * Data: [filler: u8, ...instruction data forwarded to the callee as given].
 * It first logs `filler` lines of 100 bytes, so a test can push the callee's logs past the runtime's
 * 10,000-byte log limit ("Log truncated"), then invokes the callee. When the callee set return data (a view such as
 * the registry's assert_launch_allowed), the caller reads it with sol_get_return_data and sets it again as its own,
 * as a launch program reads the registry's answer: the transaction's return data then names the caller. */

typedef unsigned char u8;
typedef unsigned long long u64;
typedef _Bool bool;

typedef struct {
  u8 bytes[32];
} SolPubkey;

/* The C ABI of sol_invoke_signed_c; every pointer points into the input buffer. */
typedef struct {
  const SolPubkey *key;
  u64 *lamports;
  u64 data_len;
  u8 *data;
  SolPubkey *owner;
  u64 rent_epoch;
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

void sol_log_(const char *message, u64 len);
u64 sol_invoke_signed_c(const SolInstruction *instruction, const SolAccountInfo *accounts, u64 account_count,
                        const void *signers, u64 signer_count);
u64 sol_get_return_data(u8 *data, u64 length, SolPubkey *program_id);
void sol_set_return_data(const u8 *data, u64 length);

#define MAX_ACCOUNTS 16
#define NON_DUPLICATE 0xff
#define REALLOC_PADDING 10240
#define ERROR_ACCOUNTS 1
#define ERROR_DATA 2
#define ERROR_RETURN_DATA 3
#define MAX_RETURN_DATA 1024

/* Account views live on the heap: sixteen of them exceed LLVM's 512-byte BPF stack frame. */
typedef struct {
  SolAccountInfo infos[MAX_ACCOUNTS];
  SolAccountMeta metas[MAX_ACCOUNTS];
  SolPubkey returned_by;
  u8 returned[MAX_RETURN_DATA];
} Accounts;

static const char FILLER[] =
    "cpi_caller filler line: pushes the logs of the program it calls toward the runtime's log limit......";

static inline u64 read_u64(const u8 *at) { return *(const u64 *)at; }

u64 entrypoint(u8 *input) {
  Accounts *accounts = (Accounts *)0x300000000ULL;
  u64 count = read_u64(input);
  if (count < 1 || count > MAX_ACCOUNTS) return ERROR_ACCOUNTS;
  u8 *at = input + 8;
  for (u64 i = 0; i < count; i++) {
    if (at[0] != NON_DUPLICATE) return ERROR_ACCOUNTS;
    SolAccountInfo *info = &accounts->infos[i];
    info->is_signer = at[1];
    info->is_writable = at[2];
    info->executable = at[3];
    info->key = (const SolPubkey *)(at + 8);
    info->owner = (SolPubkey *)(at + 40);
    info->lamports = (u64 *)(at + 72);
    info->data_len = read_u64(at + 80);
    info->data = at + 88;
    at += 88 + info->data_len + REALLOC_PADDING;
    at = (u8 *)(((u64)at + 7) & ~7ULL);
    info->rent_epoch = read_u64(at);
    at += 8;
    accounts->metas[i].pubkey = info->key;
    accounts->metas[i].is_writable = info->is_writable;
    accounts->metas[i].is_signer = info->is_signer;
  }
  u64 data_len = read_u64(at);
  const u8 *data = at + 8;
  if (data_len < 1) return ERROR_DATA;
  for (u64 line = 0; line < data[0]; line++) sol_log_(FILLER, sizeof FILLER - 1);
  SolInstruction instruction = {
      accounts->infos[0].key, &accounts->metas[1], count - 1, data + 1, data_len - 1,
  };
  u64 result = sol_invoke_signed_c(&instruction, accounts->infos, count, (const void *)0, 0);
  if (result != 0) return result;
  u64 length = sol_get_return_data(accounts->returned, MAX_RETURN_DATA, &accounts->returned_by);
  if (length == 0) return 0;
  if (length > MAX_RETURN_DATA) return ERROR_RETURN_DATA;
  for (u64 i = 0; i < 32; i++) {
    if (accounts->returned_by.bytes[i] != accounts->infos[0].key->bytes[i]) return ERROR_RETURN_DATA;
  }
  sol_set_return_data(accounts->returned, length);
  return 0;
}
