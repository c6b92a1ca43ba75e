// Canonical signed bytes: the 13 fields in spec order, LF-joined, UTF-8, launcher lower-cased, "" for an
// absent nonce. Browser-safe.
import { SIGNED_FIELD_ORDER, type SignedFields } from "./format";

/** Thrown when a field cannot be signed unambiguously (it would change the meaning of the LF-joined text). */
export class DecisionFieldError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
    this.name = "DecisionFieldError";
  }
}

const UNSIGNABLE = /[\n]|\p{Cs}/u;

/** The field's problem when it cannot be part of the canonical text, or null when it can. */
export function unsignableFieldProblem(value: string): string | null {
  if (!UNSIGNABLE.test(value)) return null;
  return value.includes("\n") ? "contains a line feed" : "contains an unpaired UTF-16 surrogate";
}

function canonicalValue(fields: SignedFields, field: (typeof SIGNED_FIELD_ORDER)[number]): string {
  if (field === "launcher") return fields.launcher.toLowerCase();
  if (field === "nonce") return fields.nonce ?? "";
  return fields[field];
}

/** The LF-joined canonical text; throws DecisionFieldError when a field would make it ambiguous. */
export function canonicalDecisionText(fields: SignedFields): string {
  const values = SIGNED_FIELD_ORDER.map((field) => {
    const value = canonicalValue(fields, field);
    const problem = unsignableFieldProblem(value);
    if (problem !== null) {
      throw new DecisionFieldError(
        field,
        `Decision field "${field}" ${problem}; it cannot be signed. Reject such input (for a nonce: 400 invalid_request).`,
      );
    }
    return value;
  });
  return values.join("\n");
}

const UTF8 = new TextEncoder();

/** The exact bytes Ed25519 signs. */
export function canonicalDecisionBytes(fields: SignedFields): Uint8Array {
  return UTF8.encode(canonicalDecisionText(fields));
}
