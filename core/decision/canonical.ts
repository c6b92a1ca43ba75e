// Canonical signed bytes: the 13 fields in spec order, LF-joined, UTF-8, launcher lower-cased, "" for an
// absent nonce. Browser-safe.

import { ServiceError } from "../errors/serviceError";
import { SIGNED_FIELD_ORDER, type SignedFields } from "./format";

/** Thrown when a field cannot be signed unambiguously (it would change the meaning of the LF-joined text). */
export class DecisionFieldError extends ServiceError {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

const UNPAIRED_SURROGATE = /\p{Cs}/u;

/** The field's problem when it cannot be part of the canonical text, or null when it can. */
export function unsignableFieldProblem(value: string): string | null {
  if (value.includes("\n")) return "contains a line feed";
  return UNPAIRED_SURROGATE.test(value) ? "contains an unpaired UTF-16 surrogate" : null;
}

function canonicalValue(fields: SignedFields, field: (typeof SIGNED_FIELD_ORDER)[number]): string {
  if (field === "launcher") return fields.launcher.toLowerCase();
  if (field === "nonce") return fields.nonce ?? "";
  return fields[field];
}

function unsignableFieldError(values: readonly string[]): DecisionFieldError {
  const index = values.findIndex((value) => unsignableFieldProblem(value) !== null);
  const field = SIGNED_FIELD_ORDER[index] as string;
  return new DecisionFieldError(
    field,
    `Decision field "${field}" ${unsignableFieldProblem(values[index] as string)}; it cannot be signed. Reject such input (for a nonce: 400 invalid_request).`,
  );
}

/** The LF-joined canonical text; throws DecisionFieldError when a field would make it ambiguous. */
export function canonicalDecisionText(fields: SignedFields): string {
  const values = SIGNED_FIELD_ORDER.map((field) => canonicalValue(fields, field));
  const text = values.join("\n");
  // One scan of the joined text suffices for surrogates: the LF separators cannot pair with them.
  if (values.some((value) => value.includes("\n")) || UNPAIRED_SURROGATE.test(text)) {
    throw unsignableFieldError(values);
  }
  return text;
}

const UTF8 = new TextEncoder();

/** The exact bytes Ed25519 signs. */
export function canonicalDecisionBytes(fields: SignedFields): Uint8Array {
  return UTF8.encode(canonicalDecisionText(fields));
}
