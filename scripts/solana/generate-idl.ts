// Writes the Anchor IDL (0.30+ format) of the C identity_registry program and its TypeScript type.
// The C program has no Anchor macros to derive it from, so this file is the IDL's source: discriminators are
// computed here, and test/program checks that the program, its headers and this IDL agree.
// Run: npm run idl:program
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { convertIdlToCamelCase, type Idl } from "@coral-xyz/anchor/dist/cjs/idl";

export const LOCAL_PROGRAM_ID = "8ayMv5K1FBk5RzfRSq7CDDGsbdNxDqXiULxfEKC3eQGt";
const IDL_DIR = join(__dirname, "..", "..", "programs", "identity_registry", "idl");

type IdlType = string | { array: [IdlType, number] } | { defined: { name: string } };
interface Field {
  name: string;
  type: IdlType;
}
interface AccountItem {
  name: string;
  writable?: true;
  signer?: true;
  address?: string;
  pda?: { seeds: ({ kind: "const"; value: number[] } | { kind: "account"; path: string })[] };
  docs?: string[];
}

export function discriminator(namespace: "global" | "account" | "event", name: string): number[] {
  return Array.from(createHash("sha256").update(`${namespace}:${name}`).digest().subarray(0, 8));
}

const bytes32: IdlType = { array: ["u8", 32] };
const defined = (name: string): IdlType => ({ defined: { name } });
const seed = (text: string) => ({ kind: "const" as const, value: Array.from(Buffer.from(text)) });
const SYSTEM_PROGRAM = "11111111111111111111111111111111";

const accounts = {
  config: { name: "config", pda: { seeds: [seed("config")] } },
  treasury: { name: "treasury", writable: true, pda: { seeds: [seed("treasury")] } },
  systemProgram: { name: "system_program", address: SYSTEM_PROGRAM },
  priceUpdate: {
    name: "price_update",
    docs: ["Pyth PriceUpdateV2 account named in the config (owner checked against config.price_owner)"],
  },
  reservation: {
    name: "reservation",
    writable: true,
    docs: ['PDA ["reservation", keccak256(foldedName), keccak256(foldedTicker)]'],
  },
  wallet: {
    name: "wallet",
    writable: true,
    pda: { seeds: [seed("wallet"), { kind: "account" as const, path: "launcher" }] },
  },
} satisfies Record<string, AccountItem>;

const instruction = (name: string, docs: string, items: AccountItem[], args: Field[], returns?: IdlType) => ({
  name,
  docs: [docs],
  discriminator: discriminator("global", name),
  accounts: items,
  args,
  ...(returns ? { returns } : {}),
});

const struct = (name: string, fields: Field[]) => ({ name, type: { kind: "struct", fields } });

const configArgsFields: Field[] = [
  { name: "price_update", type: "pubkey" },
  { name: "price_owner", type: "pubkey" },
  { name: "feed_id", type: bytes32 },
  { name: "max_price_age_secs", type: "u64" },
  { name: "tier_usd_micros", type: { array: ["u64", 4] } },
];

/** Custom errors, identical to programs/identity_registry/src/errors.h (a test compares them). */
export const ERRORS: [number, string, string][] = [
  [6000, "BadLength", "Name must fold to 1-64 characters and ticker to 2-10 characters"],
  [6001, "InvalidDuration", "Duration must be 86400, 259200, 604800 or 2592000 seconds"],
  [6002, "StalePrice", "Price update is older than the configured maximum age; post a fresh price update"],
  [6003, "InvalidPrice", "Price must be positive with an exponent between -12 and 0"],
  [
    6004,
    "PriceAccountMismatch",
    "Price account is not the configured feed (address, owner, feed id or level)",
  ],
  [6005, "TooManyActiveReservations", "Wallet already holds 3 active reservations; wait for one to expire"],
  [6006, "AlreadyReserved", "This name and ticker are reserved until the current reservation expires"],
  [6007, "NotReservationHolder", "Only the wallet that holds the reservation may renew it"],
  [6008, "RenewalWindowClosed", "Renewal is only possible in the last 12 hours before expiry"],
  [6009, "Unauthorized", "Signer is not the registry admin (or, for initialize, the upgrade authority)"],
  [6010, "MissingSigner", "A required signature is missing"],
  [6011, "InvalidAccount", "Account has the wrong owner, type or size for this position"],
  [6012, "InvalidPda", "Account address is not the expected program-derived address"],
  [6013, "InvalidProgramId", "Program account is not the expected program (System Program or loader)"],
  [6014, "AlreadyInitialized", "Registry config already exists"],
  [6015, "InvalidInstruction", "Unknown instruction or malformed instruction data"],
  [6016, "InvalidConfig", "Config values out of range: tier prices 1..1e12 USD micros, max price age > 0"],
  [6017, "MathOverflow", "Fee computation overflowed; check the tier price and the price exponent"],
  [6018, "DuplicateAccount", "The same account was passed in two positions"],
  [6019, "NotEnoughAccounts", "Instruction needs more accounts than were passed"],
  [
    6020,
    "LocalPriceDisabled",
    "push_price only works when the registry itself owns the price account (local)",
  ],
  [6021, "InsufficientTreasury", "Treasury would fall below its rent-exempt minimum"],
  [6022, "AccountNotWritable", "Account must be writable in this position"],
];

export function buildIdl(address: string) {
  return {
    address,
    metadata: {
      name: "identity_registry",
      version: "0.1.0",
      spec: "0.1.0",
      description: "Token identity registry: fold v1 on-chain, tiered USD reservations, 3 per wallet",
    },
    instructions: [
      instruction(
        "initialize",
        "Creates the config; only the program's upgrade authority may call it",
        [
          { name: "admin", writable: true, signer: true },
          { ...accounts.config, writable: true },
          accounts.treasury,
          { name: "program_data", docs: ["The program's ProgramData account (BPF Upgradeable Loader)"] },
          accounts.systemProgram,
        ],
        [{ name: "args", type: defined("ConfigArgs") }],
      ),
      instruction(
        "update_config",
        "Admin: changes admin, price source, maximum price age and tier prices",
        [
          { name: "admin", signer: true },
          { ...accounts.config, writable: true },
        ],
        [
          { name: "new_admin", type: "pubkey" },
          { name: "args", type: defined("ConfigArgs") },
        ],
      ),
      instruction(
        "push_price",
        'Admin, local clusters only: writes a PriceUpdateV2-layout account at PDA ["price"]',
        [
          { name: "admin", writable: true, signer: true },
          accounts.config,
          { name: "price_update", writable: true, pda: { seeds: [seed("price")] } },
          accounts.systemProgram,
        ],
        [
          { name: "price", type: "i64" },
          { name: "conf", type: "u64" },
          { name: "exponent", type: "i32" },
          { name: "publish_time", type: "i64" },
        ],
      ),
      instruction(
        "reserve",
        "Reserves a folded name/ticker pair for a tier duration, paying the tier's USD price in lamports",
        [
          { name: "launcher", writable: true, signer: true },
          accounts.config,
          accounts.priceUpdate,
          accounts.reservation,
          accounts.wallet,
          accounts.treasury,
          accounts.systemProgram,
        ],
        [
          { name: "name", type: "string" },
          { name: "ticker", type: "string" },
          { name: "duration_seconds", type: "u64" },
          { name: "partner_ref", type: bytes32 },
        ],
      ),
      instruction(
        "renew",
        "The holder extends a live reservation during its last 12 hours",
        [
          { name: "launcher", writable: true, signer: true },
          accounts.config,
          accounts.priceUpdate,
          accounts.reservation,
          accounts.wallet,
          accounts.treasury,
          accounts.systemProgram,
        ],
        [{ name: "duration_seconds", type: "u64" }],
      ),
      instruction(
        "fold_preview",
        "View: the on-chain fold v1 of name and ticker and their keccak256 keys",
        [],
        [
          { name: "name", type: "string" },
          { name: "ticker", type: "string" },
        ],
        defined("FoldPreview"),
      ),
      instruction(
        "withdraw_fees",
        "Admin: moves collected fees out of the treasury PDA, keeping its rent-exempt minimum",
        [
          { name: "admin", signer: true },
          accounts.config,
          accounts.treasury,
          { name: "destination", writable: true },
          accounts.systemProgram,
        ],
        [{ name: "lamports", type: "u64" }],
      ),
    ],
    accounts: ["Config", "PriceUpdateV2", "Reservation", "WalletState"].map((name) => ({
      name,
      discriminator: discriminator("account", name),
    })),
    events: ["ConfigUpdated", "FeesWithdrawn", "ReservationCreated", "ReservationRenewed"].map((name) => ({
      name,
      discriminator: discriminator("event", name),
    })),
    errors: ERRORS.map(([code, name, msg]) => ({ code, name, msg })),
    types: [
      struct("Config", [
        { name: "admin", type: "pubkey" },
        { name: "treasury", type: "pubkey" },
        ...configArgsFields,
        { name: "bump", type: "u8" },
        { name: "treasury_bump", type: "u8" },
      ]),
      struct("ConfigArgs", configArgsFields),
      struct("ConfigUpdated", [
        { name: "admin", type: "pubkey" },
        { name: "treasury", type: "pubkey" },
        ...configArgsFields,
      ]),
      struct("FeesWithdrawn", [
        { name: "destination", type: "pubkey" },
        { name: "lamports", type: "u64" },
      ]),
      struct("FoldPreview", [
        { name: "name", type: "string" },
        { name: "ticker", type: "string" },
        { name: "name_hash", type: bytes32 },
        { name: "ticker_hash", type: bytes32 },
      ]),
      struct("PriceFeedMessage", [
        { name: "feed_id", type: bytes32 },
        { name: "price", type: "i64" },
        { name: "conf", type: "u64" },
        { name: "exponent", type: "i32" },
        { name: "publish_time", type: "i64" },
        { name: "prev_publish_time", type: "i64" },
        { name: "ema_price", type: "i64" },
        { name: "ema_conf", type: "u64" },
      ]),
      struct("PriceUpdateV2", [
        { name: "write_authority", type: "pubkey" },
        { name: "verification_level", type: defined("VerificationLevel") },
        { name: "price_message", type: defined("PriceFeedMessage") },
        { name: "posted_slot", type: "u64" },
      ]),
      struct("Reservation", [
        { name: "launcher", type: "pubkey" },
        { name: "name_hash", type: bytes32 },
        { name: "ticker_hash", type: bytes32 },
        { name: "reserved_at", type: "i64" },
        { name: "expires_at", type: "i64" },
        { name: "fee_lamports", type: "u64" },
        { name: "partner_ref", type: bytes32 },
        { name: "bump", type: "u8" },
        { name: "name", type: "string" },
        { name: "ticker", type: "string" },
      ]),
      struct("ReservationCreated", [
        { name: "reservation", type: "pubkey" },
        { name: "launcher", type: "pubkey" },
        { name: "name_hash", type: bytes32 },
        { name: "ticker_hash", type: bytes32 },
        { name: "reserved_at", type: "i64" },
        { name: "expires_at", type: "i64" },
        { name: "fee_lamports", type: "u64" },
        { name: "partner_ref", type: bytes32 },
        { name: "name", type: "string" },
        { name: "ticker", type: "string" },
      ]),
      struct("ReservationRenewed", [
        { name: "reservation", type: "pubkey" },
        { name: "launcher", type: "pubkey" },
        { name: "name_hash", type: bytes32 },
        { name: "ticker_hash", type: bytes32 },
        { name: "previous_expires_at", type: "i64" },
        { name: "expires_at", type: "i64" },
        { name: "duration_seconds", type: "u64" },
        { name: "fee_lamports", type: "u64" },
      ]),
      {
        name: "VerificationLevel",
        type: {
          kind: "enum",
          variants: [{ name: "Partial", fields: [{ name: "num_signatures", type: "u8" }] }, { name: "Full" }],
        },
      },
      struct("WalletSlot", [
        { name: "reservation", type: "pubkey" },
        { name: "expires_at", type: "i64" },
      ]),
      struct("WalletState", [
        { name: "launcher", type: "pubkey" },
        { name: "bump", type: "u8" },
        { name: "slots", type: { array: [defined("WalletSlot"), 3] } },
      ]),
    ],
  };
}

function main(): void {
  const idl = buildIdl(LOCAL_PROGRAM_ID);
  writeFileSync(join(IDL_DIR, "identity_registry.json"), `${JSON.stringify(idl, null, 2)}\n`);
  // Like `anchor build`, the TypeScript type carries the camelCase names that the Anchor client exposes.
  const camel = convertIdlToCamelCase(structuredClone(idl) as unknown as Idl);
  writeFileSync(
    join(IDL_DIR, "identity_registry.ts"),
    "// Generated by scripts/solana/generate-idl.ts (npm run idl:program). Anchor's IDL type for Program<>.\n" +
      `export type IdentityRegistry = ${JSON.stringify(camel, null, 2)};\n`,
  );
  // Format the type file as the repository's lint expects (JSON files are not linted).
  execFileSync(
    join(__dirname, "..", "..", "node_modules", ".bin", "biome"),
    ["format", "--write", join(IDL_DIR, "identity_registry.ts")],
    {
      stdio: "ignore",
    },
  );
  console.error(`wrote ${IDL_DIR}/identity_registry.{json,ts}`);
}

if (require.main === module) main();
