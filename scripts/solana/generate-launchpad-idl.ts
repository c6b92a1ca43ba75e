// Writes the Anchor IDL (0.30+ format) of the C guarded_launchpad program and its TypeScript type, as
// scripts/solana/generate-idl.ts does for the registry: this file is the IDL's source, and
// test/programs/guardedLaunchpad.test.ts checks that the program's headers and this IDL agree.
// Run: npm run idl:program (both programs)
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { convertIdlToCamelCase, type Idl } from "@coral-xyz/anchor/dist/cjs/idl";
import { discriminator } from "./generate-idl";

/** programs/guarded_launchpad/keys/local-dev-program-keypair.json (public: local development only). */
export const LOCAL_LAUNCHPAD_PROGRAM_ID = "G7EAqxqWsG7n4ZVfuXMuHzd65G84pgW7RmRA5w4QRbW9";
const IDL_DIR = join(__dirname, "..", "..", "programs", "guarded_launchpad", "idl");
const SYSTEM_PROGRAM = "11111111111111111111111111111111";
const INSTRUCTIONS_SYSVAR = "Sysvar1nstructions1111111111111111111111111";

type IdlType = string | { array: [IdlType, number] };
interface Field {
  name: string;
  type: IdlType;
}

const bytes = (length: number): IdlType => ({ array: ["u8", length] });
const seed = (text: string) => ({ kind: "const" as const, value: Array.from(Buffer.from(text)) });
const struct = (name: string, docs: string, fields: Field[]) => ({
  name,
  docs: [docs],
  type: { kind: "struct", fields },
});

/** Custom errors, identical to programs/guarded_launchpad/src/errors.h (a test compares them). */
export const LAUNCHPAD_ERRORS: [number, string, string][] = [
  [6000, "InvalidInstruction", "Unknown instruction or malformed instruction data"],
  [6001, "NotEnoughAccounts", "Instruction needs more accounts than were passed"],
  [6002, "DuplicateAccount", "The same account was passed in two positions"],
  [6003, "MissingSigner", "A required signature is missing"],
  [6004, "AccountNotWritable", "Account must be writable in this position"],
  [6005, "InvalidAccount", "Account has the wrong owner, type or size for this position"],
  [6006, "InvalidPda", "Account address is not the expected program-derived address"],
  [
    6007,
    "InvalidProgramId",
    "Program account is not the expected program (registry, System Program or loader)",
  ],
  [6008, "Unauthorized", "Signer is not the program's upgrade authority"],
  [6009, "AlreadyInitialized", "Launchpad config already exists"],
  [6010, "InvalidConfig", "Registry program and cluster must be non-zero, and the registry another program"],
  [6011, "InvalidInstructionsSysvar", "Account is not the instructions sysvar"],
  [
    6012,
    "NotTopLevel",
    "launch must be a top-level instruction of the transaction, not a cross-program call",
  ],
  [6013, "DecisionMissing", "The instruction before launch must be the Ed25519 signature verification"],
  [
    6014,
    "DecisionMalformed",
    "The Ed25519 instruction must hold exactly one signature over a 265-byte message, all in its own data at the standard offsets",
  ],
  [
    6015,
    "DecisionMismatch",
    "The signed decision is not for this launch (cluster, programs, pair, launcher, mint, expiry or nonce)",
  ],
  [6016, "DecisionBlocked", "The signed decision blocks this launch"],
  [6017, "DecisionExpired", "The signed decision has expired"],
  [6018, "UntrustedSigner", "The decision's signer is not a registry decision signer valid now"],
  [6019, "RegistryAnswerInvalid", "assert_launch_allowed returned no valid answer from the registry program"],
  [6020, "RentUnavailable", "The rent sysvar has an exemption threshold this program does not know"],
];

const launchAccounts = (withInstructions: boolean) => [
  {
    name: "launcher",
    writable: true,
    signer: true,
    docs: ["Launches the token and pays for the mint account"],
  },
  { name: "config", pda: { seeds: [seed("config")] } },
  {
    name: "mint",
    writable: true,
    signer: true,
    docs: ["A fresh keypair: created here, owned by this program, recording the launch (Launch)"],
  },
  {
    name: "registry_config",
    docs: ["The registry's config PDA (its decision signer set), as named by this launchpad's config"],
    pda: { seeds: [seed("config")], program: { kind: "account", path: "registry_program" } },
  },
  {
    name: "reservation",
    docs: [
      'The registry\'s PDA ["reservation", keccak256(foldedName), keccak256(foldedTicker)], existing or not (checked by the registry)',
    ],
  },
  { name: "registry_program", docs: ["The identity registry named by this launchpad's config"] },
  ...(withInstructions ? [{ name: "instructions", address: INSTRUCTIONS_SYSVAR }] : []),
  { name: "system_program", address: SYSTEM_PROGRAM },
];

const pairArgs: Field[] = [
  { name: "name", type: "string" },
  { name: "ticker", type: "string" },
];

const instruction = (name: string, docs: string, accounts: unknown[], args: Field[]) => ({
  name,
  docs: [docs],
  discriminator: discriminator("global", name),
  accounts,
  args,
});

export function buildLaunchpadIdl(address: string) {
  return {
    address,
    metadata: {
      name: "guarded_launchpad",
      version: "0.1.0",
      spec: "0.1.0",
      description:
        "Reference launch program guarded by the identity registry: assert_launch_allowed by CPI, and a signed launch decision verified through the Ed25519 program",
    },
    instructions: [
      instruction(
        "initialize",
        "Creates the config naming the registry program (and its config PDA) and the cluster's genesis hash; only the program's upgrade authority may call it",
        [
          { name: "admin", writable: true, signer: true },
          { name: "config", writable: true, pda: { seeds: [seed("config")] } },
          { name: "program_data", docs: ["The program's ProgramData account (BPF Upgradeable Loader)"] },
          { name: "system_program", address: SYSTEM_PROGRAM },
        ],
        [
          { name: "registry_program", type: "pubkey" },
          { name: "cluster", type: bytes(32) },
        ],
      ),
      instruction(
        "launch",
        "Signed path: the previous instruction must be the Ed25519 verification of the service's allow decision for exactly this launch, by a registry decision signer valid now; also asserts the registry allows the launcher",
        launchAccounts(true),
        [...pairArgs, { name: "expires_at", type: "i64" }, { name: "nonce", type: bytes(16) }],
      ),
      instruction(
        "launch_registry_only",
        "Trustless path: launches when the registry's assert_launch_allowed allows the launcher (no live reservation of the pair by another wallet)",
        launchAccounts(false),
        pairArgs,
      ),
    ],
    accounts: ["Launch", "LaunchpadConfig"].map((name) => ({
      name,
      discriminator: discriminator("account", name),
    })),
    errors: LAUNCHPAD_ERRORS.map(([code, name, msg]) => ({ code, name, msg })),
    types: [
      struct(
        "Launch",
        "A launch, recorded in its mint account; decision_signer is zero for a registry-only launch",
        [
          { name: "launcher", type: "pubkey" },
          { name: "name_hash", type: bytes(32) },
          { name: "ticker_hash", type: bytes(32) },
          { name: "decision_signer", type: "pubkey" },
          { name: "launched_at", type: "i64" },
        ],
      ),
      struct(
        "LaunchDecisionMessage",
        "The 265 bytes the service's decision key signs (not an account): domain is ASCII idprot/launch/v1, cluster the genesis hash, decision 1 = allow, 0 = block",
        [
          { name: "domain", type: bytes(16) },
          { name: "cluster", type: bytes(32) },
          { name: "registry_program", type: "pubkey" },
          { name: "launchpad_program", type: "pubkey" },
          { name: "name_hash", type: bytes(32) },
          { name: "ticker_hash", type: bytes(32) },
          { name: "launcher", type: "pubkey" },
          { name: "mint", type: "pubkey" },
          { name: "decision", type: "u8" },
          { name: "expires_at", type: "i64" },
          { name: "nonce", type: bytes(16) },
        ],
      ),
      struct("LaunchpadConfig", 'PDA ["config"]', [
        { name: "admin", type: "pubkey" },
        { name: "registry_program", type: "pubkey" },
        { name: "registry_config", type: "pubkey" },
        { name: "cluster", type: bytes(32) },
        { name: "bump", type: "u8" },
      ]),
    ],
  };
}

function main(): void {
  const idl = buildLaunchpadIdl(LOCAL_LAUNCHPAD_PROGRAM_ID);
  writeFileSync(join(IDL_DIR, "guarded_launchpad.json"), `${JSON.stringify(idl, null, 2)}\n`);
  const camel = convertIdlToCamelCase(structuredClone(idl) as unknown as Idl);
  const typeFile = join(IDL_DIR, "guarded_launchpad.ts");
  writeFileSync(
    typeFile,
    "// Generated by scripts/solana/generate-launchpad-idl.ts. Anchor's IDL type for Program<>.\n" +
      `export type GuardedLaunchpad = ${JSON.stringify(camel, null, 2)};\n`,
  );
  execFileSync(
    join(__dirname, "..", "..", "node_modules", ".bin", "biome"),
    ["format", "--write", typeFile],
    {
      stdio: "ignore",
    },
  );
  console.error(`wrote ${IDL_DIR}/guarded_launchpad.{json,ts}`);
}

if (require.main === module) main();
