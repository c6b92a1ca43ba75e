// The registry signer planner, pure: the windows each key ring state asks of an EVM and a Solana registry, the
// order of the changes (revokes first; on Solana, updates before additions and never more than 4 entries),
// and no change at all over a registry already in step.
import { randomBytes } from "node:crypto";
import { PublicKey } from "@solana/web3.js";
import { expect } from "chai";
import type { SigningKeyStatus } from "../../../core/keyring";
import {
  OPEN_END,
  planSignerChanges,
  type RegistrySigner,
  type SignerChange,
  signerOf,
} from "../../../services/signing/registrySigners";
import type { StoredSigningKey } from "../../../services/signing/signingKeyStore";

const OVERLAP = 3_600;
const NOW = 1_800_000_000n;
const at = (seconds: bigint) => new Date(Number(seconds) * 1000);

function key(
  kid: string,
  status: SigningKeyStatus,
  createdAt: bigint,
  options: { retiringAt?: bigint; evm?: boolean } = {},
): StoredSigningKey {
  return {
    kid,
    environment: "production",
    status,
    publicKeyBase64: randomBytes(32).toString("base64"),
    ...(options.evm === false ? {} : { evmAddress: `0x${randomBytes(20).toString("hex")}` as const }),
    createdAt: at(createdAt),
    retiringAt: options.retiringAt === undefined ? null : at(options.retiringAt),
    revokedAt: status === "revoked" ? at(NOW - 10n) : null,
  };
}

/** The registry entry of `ringKey` on `family` with the given window. */
function entry(
  ringKey: StoredSigningKey,
  family: "evm" | "solana",
  validFrom: bigint,
  validUntil: bigint,
): RegistrySigner {
  return { signer: signerOf(ringKey, family) as string, validFrom, validUntil };
}

const plan = (family: "evm" | "solana", keys: StoredSigningKey[], current: RegistrySigner[] = []) =>
  planSignerChanges({ family, keys, current, now: NOW, overlapSeconds: OVERLAP });

const set = (ringKey: StoredSigningKey, family: "evm" | "solana", validFrom: bigint, validUntil: bigint) =>
  ({
    kind: "set",
    kid: ringKey.kid,
    signer: signerOf(ringKey, family),
    window: { validFrom, validUntil },
  }) as SignerChange;

describe("registry signers: the planner", () => {
  it("trusts the active key from its creation with no end: uint64 max on EVM, i64 max on Solana", () => {
    const active = key("live-a", "active", NOW - 100n);
    expect(OPEN_END).to.deep.equal({ evm: 18446744073709551615n, solana: 9223372036854775807n });
    for (const family of ["evm", "solana"] as const) {
      expect(plan(family, [active])).to.deep.equal({
        changes: [set(active, family, NOW - 100n, OPEN_END[family])],
        problems: [],
      });
    }
  });

  it("names EVM signers by the key's address and Solana signers by its Ed25519 key in base58", () => {
    const active = key("live-a", "active", NOW);
    expect(signerOf(active, "evm")).to.equal(active.evmAddress);
    expect(signerOf(active, "solana")).to.equal(
      new PublicKey(Buffer.from(active.publicKeyBase64, "base64")).toBase58(),
    );
  });

  it("plans nothing over a registry in step, whatever the case of its EVM addresses", () => {
    const retiring = key("live-a", "retiring", NOW - 500n, { retiringAt: NOW - 100n });
    const active = key("live-b", "active", NOW - 100n);
    for (const family of ["evm", "solana"] as const) {
      const current = [
        entry(retiring, family, NOW - 500n, NOW - 100n + BigInt(OVERLAP)),
        entry(active, family, NOW - 100n, OPEN_END[family]),
      ];
      if (family === "evm")
        for (const held of current) held.signer = held.signer.toUpperCase().replace("0X", "0x");
      expect(plan(family, [retiring, active], current), family).to.deep.equal({ changes: [], problems: [] });
    }
  });

  it("after a rotation: shortens the old key to retiringAt + overlap, then adds the new key", () => {
    const old = key("live-a", "retiring", NOW - 500n, { retiringAt: NOW - 1n });
    const fresh = key("live-b", "active", NOW - 1n);
    for (const family of ["evm", "solana"] as const) {
      const current = [entry(old, family, NOW - 500n, OPEN_END[family])];
      expect(plan(family, [old, fresh], current).changes).to.deep.equal([
        set(old, family, NOW - 500n, NOW - 1n + BigInt(OVERLAP)),
        set(fresh, family, NOW - 1n, OPEN_END[family]),
      ]);
    }
  });

  it("revokes, first of all, a revoked key, a retired key and a key past its overlap the registry still trusts", () => {
    const revoked = key("live-r", "revoked", NOW - 900n);
    const pastOverlap = key("live-p", "retiring", NOW - 9_000n, { retiringAt: NOW - BigInt(OVERLAP) - 1n });
    const retired = key("live-gone", "retiring", NOW - 800n, { retiringAt: NOW - 700n });
    const active = key("live-a", "active", NOW - 5n);
    const current = [
      entry(revoked, "evm", NOW - 900n, OPEN_END.evm),
      entry(pastOverlap, "evm", NOW - 9_000n, OPEN_END.evm),
      entry(retired, "evm", NOW - 800n, NOW - 700n + BigInt(OVERLAP)),
    ];
    const { changes } = plan("evm", [revoked, pastOverlap, active], current);
    expect(changes).to.deep.equal([
      { kind: "revoke", kid: "live-r", signer: revoked.evmAddress },
      { kind: "revoke", kid: "live-p", signer: pastOverlap.evmAddress },
      // No longer in the ring: the planner does not know its kid.
      { kind: "revoke", kid: null, signer: retired.evmAddress },
      set(active, "evm", NOW - 5n, OPEN_END.evm),
    ]);
  });

  it("leaves alone windows that have already ended (a revoke ends a window at the chain's clock)", () => {
    const revoked = key("live-r", "revoked", NOW - 900n);
    const retired = key("live-gone", "retiring", NOW - 800n, { retiringAt: NOW - 700n });
    const current = [
      entry(revoked, "solana", NOW - 900n, NOW - 10n),
      entry(retired, "solana", NOW - 800n, NOW),
    ];
    expect(plan("solana", [revoked], current)).to.deep.equal({ changes: [], problems: [] });
  });

  it("Solana: a full config frees entries by revoking before it sets, and updates kept keys before additions", () => {
    const revoked = key("live-r", "revoked", NOW - 900n);
    const ended = key("live-e", "retiring", NOW - 9_000n, { retiringAt: NOW - 8_000n });
    const retiring = key("live-a", "retiring", NOW - 60n, { retiringAt: NOW - 1n });
    const active = key("live-b", "active", NOW - 1n);
    const stranger = key("someone", "active", NOW - 99n);
    const current = [
      entry(revoked, "solana", NOW - 900n, OPEN_END.solana),
      entry(ended, "solana", NOW - 9_000n, NOW - 8_000n + BigInt(OVERLAP)),
      entry(retiring, "solana", NOW - 60n, OPEN_END.solana),
      entry(stranger, "solana", NOW - 99n, OPEN_END.solana),
    ];
    expect(plan("solana", [revoked, ended, retiring, active], current)).to.deep.equal({
      changes: [
        { kind: "revoke", kid: "live-r", signer: signerOf(revoked, "solana") },
        { kind: "revoke", kid: null, signer: signerOf(stranger, "solana") },
        set(retiring, "solana", NOW - 60n, NOW - 1n + BigInt(OVERLAP)),
        set(active, "solana", NOW - 1n, OPEN_END.solana),
      ],
      problems: [],
    });
  });

  it("Solana: with more keys to trust than its 4 entries, the active and newest keys get them, the rest is a problem", () => {
    const retiring = [1n, 2n, 3n, 4n].map((n) =>
      key(`live-${n}`, "retiring", NOW - 1_000n + n, { retiringAt: NOW - 100n + n }),
    );
    const active = key("live-new", "active", NOW - 10n);
    const keys = [...retiring, active];
    const solana = plan("solana", keys);
    expect(solana.changes.map((change) => change.kid)).to.deep.equal([
      "live-new",
      "live-4",
      "live-3",
      "live-2",
    ]);
    expect(solana.problems).to.have.length(1);
    expect(solana.problems[0]).to.match(
      /^No free decision signer entry for live-1: .*signing-keys:retire --kid live-1 --force/,
    );
    expect(plan("evm", keys).changes).to.have.length(5);
  });

  it("EVM: an active key without an EVM address is a problem; a retiring one never signed for EVM", () => {
    const retiring = key("live-a", "retiring", NOW - 60n, { retiringAt: NOW - 1n, evm: false });
    const active = key("live-b", "active", NOW - 1n, { evm: false });
    const { changes, problems } = plan("evm", [retiring, active]);
    expect(changes).to.deep.equal([]);
    expect(problems).to.have.length(1);
    expect(problems[0]).to.contain("live-b").and.contain("signing-keys:ensure");
    expect(plan("solana", [retiring, active]).changes).to.have.length(2);
  });
});
