// Strict base64 for signatures and public keys. Browser-safe (atob/btoa, no Buffer). Strict means one
// text per byte string: no whitespace, correct padding, zero trailing bits, so an altered signature text
// can never decode to the same bytes.

const BASE64_FORM = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Standard base64 (with padding) of `bytes`. */
export function encodeBase64(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** Decodes canonical standard base64, or returns null for anything else. */
export function decodeBase64Strict(text: string): Uint8Array | null {
  if (!BASE64_FORM.test(text)) return null;
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
  return encodeBase64(bytes) === text ? bytes : null;
}
