// The on-chain launch decisions' bytes (core/decision/onchain), without a chain: the Solana message's layout against
// the program's own layout.h, the EIP-712 digest against a hand-built one, the accepted input forms and the refusals.
// The cross-checks against the deployed verifiers are onchainEvm.test.ts and onchainSolana.test.ts.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Keypair, PublicKey } from "@solana/web3.js";
import { expect } from "chai";
import { concat, encodeAbiParameters, getAddress, type Hex, keccak256, toHex } from "viem";
import {
  type EvmLaunchDecisionFields,
  LAUNCH_DECISION_ENCODED_TYPE,
  LAUNCH_DECISION_TYPES,
  LaunchDecisionFieldError,
  launchDecisionDigest,
  launchDecisionDomain,
  launchDecisionTypedData,
  SOLANA_LAUNCH_DECISION_DOMAIN,
  SOLANA_LAUNCH_DECISION_OFFSETS,
  SOLANA_LAUNCH_DECISION_SIZE,
  type SolanaLaunchDecisionFields,
  solanaLaunchDecisionMessage,
} from "../../../core/decision/onchain";
import { decodeBase58 } from "../../../core/decision/onchain/fields";
import { foldedHash, foldedHashBytes, foldV1 } from "../../../core/fold";
import { ROOT, reachableFrom, withoutComments } from "../../architecture/importGraph";

const MAINNET_GENESIS = "5eykt4UsFv8P8NJdTREpY1vzqKqZKvdpKuc147dw2N9d";

/** 32 bytes counting up from `first` (each field its own pattern, so a misplaced field shows). */
const pattern = (first: number, length = 32) =>
  Uint8Array.from({ length }, (_, index) => (first + index) & 0xff);

function expectFieldError(action: () => unknown, field: string, text?: RegExp): void {
  let thrown: unknown;
  try {
    action();
  } catch (error) {
    thrown = error;
  }
  expect(thrown, `expected a refusal of ${field}`).to.be.instanceOf(LaunchDecisionFieldError);
  expect(thrown).to.be.instanceOf(TypeError);
  const error = thrown as LaunchDecisionFieldError;
  expect(error.field).to.equal(field);
  expect(error.name).to.equal("LaunchDecisionFieldError");
  expect(error.message).to.contain(`"${field}"`);
  if (text !== undefined) expect(error.message).to.match(text);
}

describe("core/decision/onchain: the Solana launch decision message", () => {
  const fields: SolanaLaunchDecisionFields = {
    cluster: pattern(0x10),
    registryProgram: pattern(0x30),
    launchpadProgram: pattern(0x50),
    nameHash: pattern(0x70),
    tickerHash: pattern(0x90),
    launcher: pattern(0xb0),
    mint: pattern(0xd0),
    decision: "allow",
    expiresAt: 0x0102030405060708n,
    nonce: pattern(0xf9, 16),
  };

  it("is 265 bytes with every field at the offset the program reads it (layout.h, decision.c)", () => {
    const source = (file: string) =>
      readFileSync(join(ROOT, "programs", "guarded_launchpad", "src", file), "utf8");
    const macros = new Map(
      [...source("layout.h").matchAll(/^#define (DECISION_\w+) (\d+)\b/gm)].map((m) => [m[1], Number(m[2])]),
    );
    const macroOf = (field: string) => `DECISION_${field.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase()}`;
    for (const [field, offset] of Object.entries(SOLANA_LAUNCH_DECISION_OFFSETS))
      expect(offset, field).to.equal(macros.get(macroOf(field)));
    expect(SOLANA_LAUNCH_DECISION_SIZE).to.equal(macros.get("DECISION_MESSAGE_SIZE"));
    expect(source("decision.c")).to.contain(`"${SOLANA_LAUNCH_DECISION_DOMAIN}", DECISION_DOMAIN_LEN`);
    expect(SOLANA_LAUNCH_DECISION_DOMAIN.length).to.equal(macros.get("DECISION_DOMAIN_LEN"));

    const message = solanaLaunchDecisionMessage(fields);
    expect(message).to.be.instanceOf(Uint8Array);
    expect(message.length).to.equal(265);
    // Built independently: the fields in order, the i64 little-endian.
    const expected = Buffer.concat([
      Buffer.from("idprot/launch/v1", "ascii"),
      pattern(0x10),
      pattern(0x30),
      pattern(0x50),
      pattern(0x70),
      pattern(0x90),
      pattern(0xb0),
      pattern(0xd0),
      Buffer.from([1]),
      Buffer.from("0807060504030201", "hex"),
      pattern(0xf9, 16),
    ]);
    expect(Buffer.from(message).toString("hex")).to.equal(expected.toString("hex"));
  });

  it("writes the decision byte (1 allow, 0 block) and expires_at as an i64 little-endian, negatives included", () => {
    const at = SOLANA_LAUNCH_DECISION_OFFSETS;
    expect(solanaLaunchDecisionMessage({ ...fields, decision: "block" })[at.decision]).to.equal(0);
    const expiry = (expiresAt: SolanaLaunchDecisionFields["expiresAt"]) =>
      Buffer.from(solanaLaunchDecisionMessage({ ...fields, expiresAt }).subarray(at.expiresAt, at.nonce));
    expect(expiry(-2n).toString("hex")).to.equal("feffffffffffffff");
    expect(expiry(2n ** 63n - 1n).toString("hex")).to.equal("ffffffffffffff7f");
    expect(expiry(-(2n ** 63n)).toString("hex")).to.equal("0000000000000080");
    expect(expiry(0).toString("hex")).to.equal("0000000000000000");
  });

  it("takes keys as base58, bytes or a PublicKey, hashes and nonce as 0x hex or bytes, the expiry as seconds or a Date", () => {
    const keys = [Keypair.generate().publicKey, Keypair.generate().publicKey, Keypair.generate().publicKey];
    const [registry, launchpad, launcher] = keys as [PublicKey, PublicKey, PublicKey];
    const mint = new PublicKey(pattern(0)); // a leading zero byte: base58 "1..."
    const nonce = pattern(0xa0, 16);
    const bytes = solanaLaunchDecisionMessage({
      cluster: new PublicKey(MAINNET_GENESIS).toBytes(),
      registryProgram: registry.toBytes(),
      launchpadProgram: launchpad.toBytes(),
      nameHash: foldedHashBytes(foldV1("Moon Dog")),
      tickerHash: foldedHashBytes(foldV1("MOON")),
      launcher: launcher.toBytes(),
      mint: mint.toBytes(),
      decision: "allow",
      expiresAt: 1_767_225_600n,
      nonce,
    });
    const asText = solanaLaunchDecisionMessage({
      cluster: MAINNET_GENESIS,
      registryProgram: registry.toBase58(),
      launchpadProgram: launchpad,
      nameHash: foldedHash(foldV1("Moon Dog")),
      tickerHash: foldedHash(foldV1("MOON")).toUpperCase().replace("0X", "0x") as Hex,
      launcher: launcher.toBase58(),
      mint: mint.toBase58(),
      decision: "allow",
      expiresAt: new Date("2026-01-01T00:00:00.999Z"),
      nonce: toHex(nonce),
    });
    expect(Buffer.from(asText).equals(Buffer.from(bytes))).to.equal(true);
    expect(
      Buffer.from(solanaLaunchDecisionMessage({ ...fields, expiresAt: 1_767_225_600 })).equals(
        Buffer.from(solanaLaunchDecisionMessage({ ...fields, expiresAt: new Date(1_767_225_600_000) })),
      ),
    ).to.equal(true);
    // A Date before 1970 truncates towards the past too (never a later expiry than the Date).
    const before = solanaLaunchDecisionMessage({ ...fields, expiresAt: new Date(-1) });
    expect(Buffer.from(before.subarray(241, 249)).readBigInt64LE()).to.equal(-1n);
  });

  it("decodes base58 exactly as web3.js does (leading zero bytes, the all-zero key, random keys)", () => {
    const samples = [
      new Uint8Array(32),
      pattern(0),
      Uint8Array.from({ length: 32 }, (_, i) => (i < 5 ? 0 : 0xff)),
      new Uint8Array(32).fill(0xff),
      ...Array.from({ length: 200 }, () => Keypair.generate().publicKey.toBytes()),
    ];
    for (const sample of samples) {
      const text = new PublicKey(sample).toBase58();
      expect(Buffer.from(decodeBase58(text) as Uint8Array).toString("hex"), text).to.equal(
        Buffer.from(sample).toString("hex"),
      );
    }
    expect(decodeBase58("11111111111111111111111111111111")).to.deep.equal(new Uint8Array(32));
    for (const bad of ["0", "O", "I", "l", "abc+", " 1", "é"]) expect(decodeBase58(bad), bad).to.equal(null);
  });

  it("returns a fresh message: changing an input afterwards does not change it", () => {
    const nonce = pattern(1, 16);
    const message = solanaLaunchDecisionMessage({ ...fields, nonce });
    nonce.fill(0);
    expect(Buffer.from(message.subarray(249)).equals(Buffer.from(pattern(1, 16)))).to.equal(true);
  });

  it("refuses keys of the wrong length or form, naming the field", () => {
    const keyFields = ["cluster", "registryProgram", "launchpadProgram", "launcher", "mint"] as const;
    for (const field of keyFields) {
      for (const wrong of [
        new Uint8Array(31),
        new Uint8Array(33),
        "", // no bytes
        "1111111111111111111111111111111", // 31 zero bytes
        "111111111111111111111111111111111", // 33 zero bytes
        "5eykt4UsFv8P8NJdTREpY1vzqKqZKvdpKuc147dw2N90", // "0" is not base58
        "5eykt4UsFv8P8NJdTREpY1vzqKqZKvdpKuc147dw2N9dI",
        "x".repeat(10_000),
        `0x${"11".repeat(32)}`, // hex is for hashes; keys are base58
        { toBytes: () => new Uint8Array(31) },
        { toBytes: () => "not bytes" },
        [1, 2, 3],
        42,
        null,
        undefined,
      ]) {
        expectFieldError(
          () => solanaLaunchDecisionMessage({ ...fields, [field]: wrong } as SolanaLaunchDecisionFields),
          field,
        );
      }
    }
    expectFieldError(
      () => solanaLaunchDecisionMessage({ ...fields, launcher: "x".repeat(10_000) }),
      "launcher",
      /must be a base58 Solana key of 32 bytes, got "x{48}…" \(10000 characters\)\.$/,
    );
  });

  it("refuses hashes and nonces of the wrong length or form, naming the field", () => {
    for (const [field, length] of [
      ["nameHash", 32],
      ["tickerHash", 32],
      ["nonce", 16],
    ] as const) {
      for (const wrong of [
        new Uint8Array(length - 1),
        new Uint8Array(length + 1),
        `0x${"ab".repeat(length - 1)}`,
        `0x${"ab".repeat(length)}0`,
        `0x${"zz".repeat(length)}`,
        "ab".repeat(length), // no 0x
        `0X${"ab".repeat(length)}`,
        MAINNET_GENESIS, // base58 is for keys
        length,
        undefined,
      ]) {
        expectFieldError(
          () => solanaLaunchDecisionMessage({ ...fields, [field]: wrong } as SolanaLaunchDecisionFields),
          field,
          new RegExp(`must be ${length} bytes`),
        );
      }
    }
  });

  it("refuses an expiry that is not whole i64 seconds, and any decision but allow or block", () => {
    for (const wrong of [
      1.5,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      2 ** 53,
      2n ** 63n,
      -(2n ** 63n) - 1n,
      new Date(Number.NaN),
      "1767225600",
      null,
    ]) {
      expectFieldError(
        () =>
          solanaLaunchDecisionMessage({
            ...fields,
            expiresAt: wrong as SolanaLaunchDecisionFields["expiresAt"],
          }),
        "expiresAt",
      );
    }
    for (const wrong of ["Allow", "deny", "allow_authorized_only", 1, true, undefined]) {
      expectFieldError(
        () =>
          solanaLaunchDecisionMessage({
            ...fields,
            decision: wrong as SolanaLaunchDecisionFields["decision"],
          }),
        "decision",
      );
    }
  });
});

describe("core/decision/onchain: the EVM launch decision (EIP-712)", () => {
  const factory = getAddress("0x5fbdb2315678afecb367f032d93f642f64180aa3");
  const fields: EvmLaunchDecisionFields = {
    chainId: 31337,
    factory,
    nameHash: foldedHash(foldV1("Moon Dog")),
    tickerHash: foldedHash(foldV1("MOON")),
    launcher: "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266",
    token: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
    decision: "allow",
    expiresAt: 1_767_225_600n,
    nonce: keccak256(toHex("nonce")),
  };

  it("declares the type of docs/evm.md, field for field", () => {
    const docs = readFileSync(join(ROOT, "docs", "evm.md"), "utf8");
    expect(docs).to.contain(LAUNCH_DECISION_ENCODED_TYPE);
    const fromTypes = `LaunchDecision(${LAUNCH_DECISION_TYPES.LaunchDecision.map((f) => `${f.type} ${f.name}`).join(",")})`;
    expect(fromTypes).to.equal(LAUNCH_DECISION_ENCODED_TYPE);
    expect(docs).to.contain(
      'EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)\n  name "IdentityGuard", version "1"',
    );
  });

  it("its digest is keccak256(0x1901 ‖ domain separator ‖ struct hash), built here by hand", () => {
    const word = (types: { type: string }[], values: unknown[]) =>
      keccak256(encodeAbiParameters(types, values as never));
    const domainSeparator = word(
      [
        { type: "bytes32" },
        { type: "bytes32" },
        { type: "bytes32" },
        { type: "uint256" },
        { type: "address" },
      ],
      [
        keccak256(
          toHex("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)"),
        ),
        keccak256(toHex("IdentityGuard")),
        keccak256(toHex("1")),
        31337n,
        factory,
      ],
    );
    for (const [decision, value] of [
      ["allow", 1],
      ["block", 0],
    ] as const) {
      const structHash = word(
        ["bytes32", "bytes32", "bytes32", "address", "address", "uint8", "uint64", "bytes32"].map((type) => ({
          type,
        })),
        [
          keccak256(toHex(LAUNCH_DECISION_ENCODED_TYPE)),
          fields.nameHash,
          fields.tickerHash,
          fields.launcher,
          fields.token,
          value,
          fields.expiresAt,
          fields.nonce,
        ],
      );
      expect(launchDecisionDigest({ ...fields, decision })).to.equal(
        keccak256(concat(["0x1901", domainSeparator, structHash])),
      );
    }
  });

  it("builds viem's typed data: the IdentityGuard domain on the factory, normalized values", () => {
    const typedData = launchDecisionTypedData({
      ...fields,
      chainId: 31337n,
      nameHash: (fields.nameHash as string).toUpperCase().replace("0X", "0x") as Hex,
      tickerHash: foldedHashBytes(foldV1("MOON")),
      expiresAt: new Date(1_767_225_600_999),
    });
    expect(typedData).to.deep.equal({
      domain: { name: "IdentityGuard", version: "1", chainId: 31337, verifyingContract: factory },
      types: LAUNCH_DECISION_TYPES,
      primaryType: "LaunchDecision",
      message: {
        nameHash: fields.nameHash,
        tickerHash: fields.tickerHash,
        launcher: getAddress(fields.launcher),
        token: getAddress(fields.token),
        decision: 1,
        expiresAt: 1_767_225_600n,
        nonce: fields.nonce,
      },
    });
    expect(launchDecisionDomain(31337, factory.toLowerCase())).to.deep.equal(typedData.domain);
    expect(launchDecisionDigest({ ...fields, expiresAt: 1_767_225_600 })).to.equal(
      launchDecisionDigest(fields),
    );
    expect(launchDecisionTypedData({ ...fields, expiresAt: 2n ** 64n - 1n }).message.expiresAt).to.equal(
      2n ** 64n - 1n,
    );
  });

  it("names the chain and the factory: another of either is another digest", () => {
    const digest = launchDecisionDigest(fields);
    expect(launchDecisionDigest({ ...fields, chainId: 1 })).to.not.equal(digest);
    expect(launchDecisionDigest({ ...fields, factory: fields.token })).to.not.equal(digest);
  });

  it("refuses bad addresses, chain ids, hashes, nonces, expiries and decisions, naming the field", () => {
    const refuse = (override: Record<string, unknown>, field: string) =>
      expectFieldError(
        () => launchDecisionTypedData({ ...fields, ...override } as EvmLaunchDecisionFields),
        field,
      );
    for (const field of ["factory", "launcher", "token"]) {
      for (const wrong of [
        "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92267", // a mixed-case typo: the checksum fails
        "0xf39fd6e51aad88f6f4ce6ab8827279cfffb922", // 19 bytes
        "f39fd6e51aad88f6f4ce6ab8827279cfffb92266",
        MAINNET_GENESIS,
        new Uint8Array(20),
        undefined,
      ])
        refuse({ [field]: wrong }, field);
    }
    for (const wrong of [0, -1, 1.5, Number.NaN, 2n ** 53n, 0n, "1", undefined])
      refuse({ chainId: wrong }, "chainId");
    for (const field of ["nameHash", "tickerHash", "nonce"]) {
      for (const wrong of [
        new Uint8Array(16),
        `0x${"ab".repeat(16)}`,
        `0x${"ab".repeat(33)}`,
        "0x",
        undefined,
      ])
        refuse({ [field]: wrong }, field);
    }
    for (const wrong of [-1n, -1, 2n ** 64n, 0.5, new Date(Number.NaN), "soon"])
      refuse({ expiresAt: wrong }, "expiresAt");
    for (const wrong of ["ALLOW", 1, null]) refuse({ decision: wrong }, "decision");
    expectFieldError(() => launchDecisionDomain(0, factory), "chainId");
    expectFieldError(() => launchDecisionDomain(1, "0x00"), "factory");
    expectFieldError(() => launchDecisionDigest({ ...fields, expiresAt: 2n ** 64n }), "expiresAt", /uint64/);
  });
});

describe("core/decision/onchain: browser-safe like the rest of core", () => {
  it("reaches no Node module, no Node-only global, and no package but viem", () => {
    const graph = reachableFrom("core/decision/onchain/index.ts");
    expect(graph.files).to.include.members([
      "core/decision/onchain/solanaLaunchDecision.ts",
      "core/decision/onchain/evmLaunchDecision.ts",
      "core/decision/onchain/fields.ts",
    ]);
    expect(graph.packages).to.deep.equal(["viem"]);
    for (const file of graph.files) {
      const code = withoutComments(readFileSync(join(ROOT, file), "utf8"));
      expect(code, file).to.not.match(/\bBuffer\b|\bprocess\.|\brequire\(/);
    }
    const solana = reachableFrom("core/decision/onchain/solanaLaunchDecision.ts");
    expect(solana.packages, "the Solana message needs no package").to.deep.equal([]);
  });
});
