// Writes the Anchor IDL (0.30+ format) of the C identity_registry program and its TypeScript type.
// The C program has no Anchor macros to derive it from, so this file is the IDL's source: discriminators are
// computed here, and test/programs/idl.test.ts checks that the program, its headers and this IDL agree.
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
  pda?: {
    seeds: (
      | { kind: "const"; value: number[] }
      | { kind: "account"; path: string }
      | { kind: "arg"; path: string }
    )[];
  };
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
  commitment: {
    name: "commitment",
    writable: true,
    docs: [
      'PDA ["commitment", launcher, commitment], commitment = keccak256(name_hash || ticker_hash || launcher || duration_seconds u64 LE || partner_ref || secret)',
    ],
  },
  admin: { name: "admin", signer: true },
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
  { name: "min_commitment_slots", type: "u64" },
  { name: "max_confidence_bps", type: "u16" },
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
  [
    6016,
    "InvalidConfig",
    "Config values out of range: tier prices 1..1e12 USD micros, max price age 1..2^31-1 s, min commitment slots 1..1000, max confidence 1..10000 bps, decision signer a non-zero key with valid_from < valid_until",
  ],
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
  [
    6023,
    "CommitmentExists",
    "This launcher already holds this commitment; reveal it, or close it once expired",
  ],
  [
    6024,
    "CommitmentNotFound",
    "No commitment of this launcher matches the revealed name, ticker, duration, partner and secret",
  ],
  [6025, "CommitmentTooNew", "Commitment is too recent: reveal it at least min_commitment_slots slots later"],
  [6026, "CommitmentExpired", "Commitment is older than 24 hours; commit again"],
  [6027, "CommitmentNotExpired", "A commitment can only be closed once it is older than 24 hours"],
  [6028, "PriceConfidenceTooWide", "Price confidence interval exceeds the configured share of the price"],
  [6029, "LaunchRefused", "Another wallet holds a live reservation of this name and ticker"],
  [6030, "DecisionSignerSetFull", "All 4 decision signer entries are in use and none has ended"],
  [6031, "DecisionSignerNotFound", "No decision signer entry holds this key"],
];

export function buildIdl(address: string) {
  return {
    address,
    metadata: {
      name: "identity_registry",
      version: "0.1.0",
      spec: "0.1.0",
      description:
        "Token identity registry: fold v1 on-chain, commit-reveal tiered USD reservations, 3 per wallet, launch checks",
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
        "Admin: changes price source, maximum price age, tier prices, minimum commitment age and price confidence bound (not the admin: propose_admin)",
        [accounts.admin, { ...accounts.config, writable: true }],
        [{ name: "args", type: defined("ConfigArgs") }],
      ),
      instruction(
        "propose_admin",
        "Admin: proposes a new admin, who must accept_admin; proposing the zero key or the admin itself cancels",
        [accounts.admin, { ...accounts.config, writable: true }],
        [{ name: "new_admin", type: "pubkey" }],
      ),
      instruction(
        "accept_admin",
        "The proposed admin takes the role (two-step hand-over)",
        [
          { name: "pending_admin", signer: true },
          { ...accounts.config, writable: true },
        ],
        [],
      ),
      instruction(
        "set_decision_signer",
        "Admin: trusts a launch-decision signing key for valid_from <= t < valid_until (upsert; 4 entries, an ended one is reused)",
        [accounts.admin, { ...accounts.config, writable: true }],
        [
          { name: "signer", type: "pubkey" },
          { name: "valid_from", type: "i64" },
          { name: "valid_until", type: "i64" },
        ],
      ),
      instruction(
        "revoke_decision_signer",
        "Admin: ends a decision signing key's window now",
        [accounts.admin, { ...accounts.config, writable: true }],
        [{ name: "signer", type: "pubkey" }],
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
        "commit",
        "Seals a reservation request: creates the launcher's Commitment to keccak256(name_hash || ticker_hash || launcher || duration_seconds u64 LE || partner_ref || secret)",
        [
          { name: "launcher", writable: true, signer: true },
          {
            ...accounts.commitment,
            pda: {
              seeds: [
                seed("commitment"),
                { kind: "account", path: "launcher" },
                { kind: "arg", path: "commitment" },
              ],
            },
          },
          accounts.systemProgram,
        ],
        [{ name: "commitment", type: bytes32 }],
      ),
      instruction(
        "reserve",
        "Reveals a matured commitment (closing it) and reserves the folded name/ticker pair for a tier duration, paying the tier's USD price in lamports",
        [
          { name: "launcher", writable: true, signer: true },
          accounts.config,
          accounts.priceUpdate,
          accounts.reservation,
          accounts.wallet,
          accounts.treasury,
          accounts.systemProgram,
          accounts.commitment,
        ],
        [
          { name: "name", type: "string" },
          { name: "ticker", type: "string" },
          { name: "duration_seconds", type: "u64" },
          { name: "partner_ref", type: bytes32 },
          { name: "secret", type: bytes32 },
        ],
      ),
      instruction(
        "close_commitment",
        "Anyone: closes a commitment older than 24 hours (no longer revealable), its rent back to its launcher",
        [
          { name: "commitment", writable: true },
          { name: "launcher", writable: true, docs: ["The commitment's launcher: receives its rent"] },
        ],
        [],
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
        "assert_launch_allowed",
        "View or CPI: fails with LaunchRefused when another wallet holds a live reservation of the pair; returns its holder and expiry (zeros when free) and the folded pair's keccak256 keys",
        [
          accounts.config,
          {
            name: "reservation",
            docs: ['PDA ["reservation", keccak256(foldedName), keccak256(foldedTicker)], existing or not'],
          },
        ],
        [
          { name: "name", type: "string" },
          { name: "ticker", type: "string" },
          { name: "launcher", type: "pubkey" },
        ],
        defined("LaunchCheck"),
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
    accounts: ["Commitment", "Config", "PriceUpdateV2", "Reservation", "WalletState"].map((name) => ({
      name,
      discriminator: discriminator("account", name),
    })),
    events: [
      "AdminTransferStarted",
      "AdminTransferred",
      "ConfigUpdated",
      "DecisionSignerRevoked",
      "DecisionSignerSet",
      "FeesWithdrawn",
      "ReservationCreated",
      "ReservationRenewed",
    ].map((name) => ({
      name,
      discriminator: discriminator("event", name),
    })),
    errors: ERRORS.map(([code, name, msg]) => ({ code, name, msg })),
    types: [
      struct("AdminTransferStarted", [
        { name: "admin", type: "pubkey" },
        { name: "pending_admin", type: "pubkey" },
      ]),
      struct("AdminTransferred", [
        { name: "previous_admin", type: "pubkey" },
        { name: "admin", type: "pubkey" },
      ]),
      struct("Commitment", [
        { name: "launcher", type: "pubkey" },
        { name: "commitment", type: bytes32 },
        { name: "committed_slot", type: "u64" },
        { name: "committed_at", type: "i64" },
        { name: "bump", type: "u8" },
      ]),
      struct("Config", [
        { name: "admin", type: "pubkey" },
        { name: "treasury", type: "pubkey" },
        ...configArgsFields,
        { name: "pending_admin", type: "pubkey" },
        { name: "bump", type: "u8" },
        { name: "treasury_bump", type: "u8" },
        { name: "decision_signers", type: { array: [defined("DecisionSigner"), 4] } },
      ]),
      struct("ConfigArgs", configArgsFields),
      struct("ConfigUpdated", [
        { name: "admin", type: "pubkey" },
        { name: "treasury", type: "pubkey" },
        ...configArgsFields,
      ]),
      struct("DecisionSigner", [
        { name: "signer", type: "pubkey" },
        { name: "valid_from", type: "i64" },
        { name: "valid_until", type: "i64" },
      ]),
      struct("DecisionSignerRevoked", [
        { name: "signer", type: "pubkey" },
        { name: "valid_until", type: "i64" },
      ]),
      struct("DecisionSignerSet", [
        { name: "signer", type: "pubkey" },
        { name: "valid_from", type: "i64" },
        { name: "valid_until", type: "i64" },
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
      struct("LaunchCheck", [
        { name: "holder", type: "pubkey" },
        { name: "expires_at", type: "i64" },
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
