// The identity_registry program's Anchor IDL (committed JSON) and the Borsh coder built from it: the one
// description of the program's accounts, instructions, events and errors that every client decodes with.
import { readFileSync } from "node:fs";
import { BorshCoder, type Idl } from "@coral-xyz/anchor";
import { projectPath } from "../../config/projectRoot";
import type { IdentityRegistry } from "../../programs/identity_registry/idl/identity_registry";

export const IDL_PATH = projectPath("programs", "identity_registry", "idl", "identity_registry.json");

/** A fresh copy of the IDL (callers may change `address` for another deployment). */
export function loadIdl(): IdentityRegistry {
  return JSON.parse(readFileSync(IDL_PATH, "utf8")) as IdentityRegistry;
}

interface IdlShape {
  instructions: { name: string; accounts: IdlAccount[] }[];
  errors: { code: number; name: string; msg?: string }[];
}

export interface IdlAccount {
  name: string;
  writable?: boolean;
  signer?: boolean;
}

let cached: { idl: IdlShape; coder: BorshCoder } | undefined;

/** The raw IDL, read once: snake_case names, as the program's wire format spells them. */
function registryIdl() {
  if (cached === undefined) {
    const idl = loadIdl();
    cached = { idl: idl as unknown as IdlShape, coder: new BorshCoder(idl as unknown as Idl) };
  }
  return cached;
}

/** Anchor's Borsh coder over the raw IDL (accounts, instructions, events). */
export function registryCoder(): BorshCoder {
  return registryIdl().coder;
}

/** The IDL's accounts of an instruction, in order, with their writable and signer flags. */
export function instructionAccounts(instruction: string): readonly IdlAccount[] {
  const found = registryIdl().idl.instructions.find((candidate) => candidate.name === instruction);
  if (!found) throw new Error(`The IDL has no instruction ${instruction}.`);
  return found.accounts;
}

/** The IDL's name and message of a custom program error code, or null for codes it does not define. */
export function programError(code: number): { name: string; message: string } | null {
  const found = registryIdl().idl.errors.find((error) => error.code === code);
  return found ? { name: found.name, message: found.msg ?? found.name } : null;
}
