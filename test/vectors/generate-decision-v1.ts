// Writes test/vectors/decision-v1.json: `npx tsx test/vectors/generate-decision-v1.ts`.
// Decision verification vectors for partner SDKs in any language. Independent of core/decision (the code
// under test): the canonical text is joined here from the spec's field list, signatures come from
// @noble/ed25519 with the RFC 8032 section 7.1 test keys (public test keys, never used by a service), and
// every expected reason is written by hand.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { getPublicKeyAsync, signAsync } from "@noble/ed25519";

interface TestKey {
  kid: string;
  environment: "sandbox" | "production";
  status: "active" | "retiring" | "revoked";
  /** RFC 8032 7.1 test secret key (TEST 1, 2, 3, 1024). */
  privateKeySeedHex: string;
}

const KEYS: TestKey[] = [
  {
    kid: "live-test-1",
    environment: "production",
    status: "active",
    privateKeySeedHex: "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
  },
  {
    kid: "live-test-0",
    environment: "production",
    status: "retiring",
    privateKeySeedHex: "c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7",
  },
  {
    kid: "live-test-revoked",
    environment: "production",
    status: "revoked",
    privateKeySeedHex: "f5e5767cf153319517630f226876b86c8160cc583bc013744c6bf255f5cc0ee5",
  },
  {
    kid: "sbx-test-1",
    environment: "sandbox",
    status: "active",
    privateKeySeedHex: "4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb",
  },
];

const FIELD_ORDER = [
  "version",
  "identityKey",
  "normalizedName",
  "normalizedTicker",
  "chain",
  "launchpadId",
  "launcher",
  "decision",
  "reason",
  "issuedAt",
  "expiresAt",
  "nonce",
  "requestId",
] as const;

type Fields = Record<(typeof FIELD_ORDER)[number], string | undefined>;

const BASE: Fields = {
  version: "svc-decision-v1",
  requestId: "req_00000000-0000-4000-8000-000000000001",
  identityKey: "MOONBADGER::BADGER",
  normalizedName: "MOONBADGER",
  normalizedTicker: "BADGER",
  chain: "base",
  launchpadId: "lp_alpha",
  launcher: "0xAbCdEf0123456789aBcDeF0123456789AbCdEf01",
  decision: "allow",
  reason: "authorized_launcher",
  issuedAt: "2026-11-22T10:00:00.000Z",
  expiresAt: "2026-11-22T10:05:00.000Z",
  nonce: "n-42",
};

/** The spec's canonical text, restated independently of core/decision. */
function canonicalText(fields: Fields): string {
  return FIELD_ORDER.map((field) =>
    field === "launcher" ? (fields.launcher as string).toLowerCase() : (fields[field] ?? ""),
  ).join("\n");
}

function keyByKid(kid: string): TestKey {
  const key = KEYS.find((candidate) => candidate.kid === kid);
  if (key === undefined) throw new Error(`No test key ${kid}`);
  return key;
}

async function signed(fields: Fields, kid: string): Promise<Record<string, unknown>> {
  const key = keyByKid(kid);
  const text = canonicalText(fields);
  const signature = await signAsync(
    new TextEncoder().encode(text),
    Buffer.from(key.privateKeySeedHex, "hex"),
  );
  const decision: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(fields)) if (value !== undefined) decision[field] = value;
  return {
    ...decision,
    environment: key.environment,
    signature: Buffer.from(signature).toString("base64"),
    signatureAlg: "ed25519",
    keyId: kid,
  };
}

interface CaseSpec {
  id: string;
  description: string;
  fields?: Partial<Fields>;
  kid?: string;
  /** Changes applied after signing (tampering, relabelling); `null` deletes the field. */
  after?: Record<string, unknown>;
  now?: string;
  skewSeconds?: number;
  environment?: "sandbox" | "production";
  expect?: { launchpadId?: string; chain?: string; launcher?: string };
  valid: boolean;
  reason: string;
}

const SOLANA_WALLET = "9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin";
const IN_WINDOW = "2026-11-22T10:01:00.000Z";

const CASES: CaseSpec[] = [
  { id: "ok-allow", description: "fresh allow with nonce, active key", valid: true, reason: "ok" },
  {
    id: "ok-no-nonce",
    description: "absent nonce is signed as an empty line",
    fields: { nonce: undefined, decision: "block", reason: "protected_for_another_wallet" },
    valid: true,
    reason: "ok",
  },
  {
    id: "ok-retiring-key",
    description: "a retiring key is still accepted during rotation",
    kid: "live-test-0",
    valid: true,
    reason: "ok",
  },
  {
    id: "ok-solana",
    description: "Solana launcher, compared exactly",
    fields: { chain: "solana", launcher: SOLANA_WALLET },
    expect: { launchpadId: "lp_alpha", chain: "solana", launcher: SOLANA_WALLET },
    valid: true,
    reason: "ok",
  },
  {
    id: "ok-sandbox",
    description: "sandbox decision verified in the sandbox",
    kid: "sbx-test-1",
    environment: "sandbox",
    valid: true,
    reason: "ok",
  },
  {
    id: "ok-unicode-reason",
    description: "non-ASCII field text is signed as UTF-8",
    fields: { reason: "geschützt \u{1f6e1}" },
    valid: true,
    reason: "ok",
  },
  {
    id: "ok-launcher-recased",
    description: "the launcher is signed lower-cased, so re-casing an EVM address keeps the signature valid",
    after: { launcher: "0xABCDEF0123456789ABCDEF0123456789ABCDEF01" },
    valid: true,
    reason: "ok",
  },
  {
    id: "ok-skew-edge-expiry",
    description: "30 s after expiresAt is still inside the default skew",
    now: "2026-11-22T10:05:30.000Z",
    valid: true,
    reason: "ok",
  },
  {
    id: "ok-skew-edge-issued",
    description: "issuedAt 30 s in the future is still inside the default skew",
    now: "2026-11-22T09:59:30.000Z",
    valid: true,
    reason: "ok",
  },
  {
    id: "tampered-decision",
    description: "block changed to allow",
    fields: { decision: "block" },
    after: { decision: "allow" },
    valid: false,
    reason: "bad_signature",
  },
  {
    id: "tampered-reason",
    description: "reason changed",
    after: { reason: "available" },
    valid: false,
    reason: "bad_signature",
  },
  {
    id: "tampered-nonce",
    description: "nonce changed",
    after: { nonce: "n-43" },
    valid: false,
    reason: "bad_signature",
  },
  {
    id: "removed-nonce",
    description: "nonce removed",
    after: { nonce: null },
    valid: false,
    reason: "bad_signature",
  },
  {
    id: "tampered-expiry",
    description: "expiresAt extended",
    after: { expiresAt: "2026-11-22T11:00:00.000Z" },
    valid: false,
    reason: "bad_signature",
  },
  {
    id: "tampered-signature",
    description: "signature of another decision",
    after: {
      signature: "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA==",
    },
    valid: false,
    reason: "bad_signature",
  },
  {
    id: "keyid-other-listed-key",
    description: "keyId switched to another listed key: never fall back",
    after: { keyId: "live-test-0" },
    valid: false,
    reason: "bad_signature",
  },
  {
    id: "unknown-key",
    description: "keyId not listed",
    after: { keyId: "live-test-9" },
    valid: false,
    reason: "unknown_key",
  },
  {
    id: "revoked-key",
    description: "signed by a key that is now revoked",
    kid: "live-test-revoked",
    valid: false,
    reason: "revoked_key",
  },
  {
    id: "no-signature",
    description: "signature missing",
    after: { signature: null },
    valid: false,
    reason: "no_signature",
  },
  {
    id: "empty-signature",
    description: "signature empty",
    after: { signature: "" },
    valid: false,
    reason: "no_signature",
  },
  {
    id: "expired",
    description: "31 s after expiresAt",
    now: "2026-11-22T10:05:31.000Z",
    valid: false,
    reason: "expired",
  },
  {
    id: "expired-zero-skew",
    description: "1 ms after expiresAt with skew 0",
    now: "2026-11-22T10:05:00.001Z",
    skewSeconds: 0,
    valid: false,
    reason: "expired",
  },
  {
    id: "not-yet-valid",
    description: "issuedAt 31 s in the future",
    now: "2026-11-22T09:59:29.000Z",
    valid: false,
    reason: "not_yet_valid",
  },
  {
    id: "environment-relabelled",
    description: "production decision relabelled sandbox (environment is not signed; the key binds it)",
    after: { environment: "sandbox" },
    environment: "sandbox",
    valid: false,
    reason: "environment_mismatch",
  },
  {
    id: "environment-sandbox-in-production",
    description: "sandbox decision presented to a production verifier",
    kid: "sbx-test-1",
    valid: false,
    reason: "environment_mismatch",
  },
  {
    id: "launcher-mismatch",
    description: "decision for another wallet",
    expect: {
      launchpadId: "lp_alpha",
      chain: "base",
      launcher: "0x0000000000000000000000000000000000000001",
    },
    valid: false,
    reason: "launcher_mismatch",
  },
  {
    id: "solana-launcher-case",
    description: "Solana addresses are case-sensitive",
    fields: { chain: "solana", launcher: SOLANA_WALLET },
    expect: { launchpadId: "lp_alpha", chain: "solana", launcher: SOLANA_WALLET.toLowerCase() },
    valid: false,
    reason: "launcher_mismatch",
  },
  {
    id: "chain-mismatch",
    description: "decision for another chain",
    expect: { launchpadId: "lp_alpha", chain: "ethereum", launcher: BASE.launcher as string },
    valid: false,
    reason: "chain_mismatch",
  },
  {
    id: "launchpad-mismatch",
    description: "decision for another launchpad",
    expect: { launchpadId: "lp_beta", chain: "base", launcher: BASE.launcher as string },
    valid: false,
    reason: "launchpad_mismatch",
  },
  {
    id: "unsupported-version",
    description: "a format version this verifier does not know",
    fields: { version: "svc-decision-v2" },
    valid: false,
    reason: "unsupported_version",
  },
  {
    id: "malformed-date",
    description: "issuedAt is not an ISO 8601 date-time",
    after: { issuedAt: "yesterday" },
    valid: false,
    reason: "malformed",
  },
  {
    id: "malformed-missing-field",
    description: "chain missing",
    after: { chain: null },
    valid: false,
    reason: "malformed",
  },
];

async function caseOf(spec: CaseSpec) {
  const fields: Fields = { ...BASE, ...spec.fields };
  const decision = await signed(fields, spec.kid ?? "live-test-1");
  for (const [field, value] of Object.entries(spec.after ?? {})) {
    if (value === null) delete decision[field];
    else decision[field] = value;
  }
  return {
    id: spec.id,
    description: spec.description,
    decision,
    canonicalText: canonicalText(fields),
    options: {
      environment: spec.environment ?? "production",
      now: spec.now ?? IN_WINDOW,
      ...(spec.skewSeconds === undefined ? {} : { skewSeconds: spec.skewSeconds }),
      expect: spec.expect ?? { launchpadId: "lp_alpha", chain: BASE.chain, launcher: BASE.launcher },
    },
    expected: { valid: spec.valid, reason: spec.reason },
  };
}

/** The vectors file's exact text, as committed in test/vectors/decision-v1.json. */
export async function decisionVectorsText(): Promise<string> {
  const keys = await Promise.all(
    KEYS.map(async (key) => ({
      kid: key.kid,
      environment: key.environment,
      status: key.status,
      active: key.status === "active",
      publicKeyBase64: Buffer.from(
        await getPublicKeyAsync(Buffer.from(key.privateKeySeedHex, "hex")),
      ).toString("base64"),
      privateKeySeedHex: key.privateKeySeedHex,
    })),
  );
  const cases = [];
  for (const spec of CASES) cases.push(await caseOf(spec));
  return `${JSON.stringify({ version: "svc-decision-v1", defaultSkewSeconds: 30, keys, cases }, null, 2)}\n`;
}

export const DECISION_VECTORS_FILE = join(__dirname, "decision-v1.json");

if (require.main === module) {
  decisionVectorsText().then((text) => {
    writeFileSync(DECISION_VECTORS_FILE, text);
    console.error(`wrote ${CASES.length} decision vectors to test/vectors/decision-v1.json`);
  });
}
