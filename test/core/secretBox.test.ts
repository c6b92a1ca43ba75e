import { randomBytes } from "node:crypto";
import { expect } from "chai";
import fc from "fast-check";
import {
  createSecretBox,
  generateMasterKey,
  MasterKeyError,
  masterKeyIdOf,
  parseMasterKey,
  SecretBoxError,
} from "../../core/secrets/secretBox";

describe("secret box (AES-256-GCM under the master key)", () => {
  const masterKey = randomBytes(32);
  const box = createSecretBox(masterKey);

  it("round-trips any bytes for the same context, and never repeats a ciphertext", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), fc.string(), (plaintext, context) => {
        const sealed = box.seal(plaintext, context);
        expect(box.open(sealed, context).equals(Buffer.from(plaintext))).to.equal(true);
      }),
      { numRuns: 50 },
    );
    expect(box.seal("same", "ctx")).to.not.equal(box.seal("same", "ctx"));
  });

  it("rejects another context, an altered byte, another master key, and text that is not sealed", () => {
    const sealed = box.seal("whsec_secret", "webhook-secret:ep_1");
    expect(() => box.open(sealed, "webhook-secret:ep_2")).to.throw(
      SecretBoxError,
      /altered or belongs to another record/,
    );
    const parts = sealed.split(".");
    const body = Buffer.from(parts[3] as string, "base64url");
    body[0] = (body[0] as number) ^ 1;
    const altered = [...parts.slice(0, 3), body.toString("base64url")].join(".");
    expect(() => box.open(altered, "webhook-secret:ep_1")).to.throw(SecretBoxError);
    expect(() => createSecretBox(randomBytes(32)).open(sealed, "webhook-secret:ep_1")).to.throw(
      SecretBoxError,
      /not configured/,
    );
    expect(() => box.open("whsec_plain", "webhook-secret:ep_1")).to.throw(
      SecretBoxError,
      /Not a sealed value/,
    );
  });

  it("opens values sealed under a previous master key and reports that they need re-sealing", () => {
    const nextKey = randomBytes(32);
    const next = createSecretBox(nextKey, [masterKey]);
    const old = box.seal("secret", "ctx");
    expect(next.open(old, "ctx").toString()).to.equal("secret");
    expect(next.needsReseal(old)).to.equal(true);
    expect(next.needsReseal(next.seal("secret", "ctx"))).to.equal(false);
    expect(next.masterKeyId).to.equal(masterKeyIdOf(nextKey)).and.not.equal(box.masterKeyId);
  });

  it("parses master keys as 64 hex characters or base64 and explains anything else", () => {
    const key = randomBytes(32);
    expect(parseMasterKey(key.toString("hex")).equals(key)).to.equal(true);
    expect(parseMasterKey(key.toString("base64")).equals(key)).to.equal(true);
    expect(parseMasterKey(generateMasterKey())).to.have.length(32);
    for (const bad of ["", "short", randomBytes(16).toString("hex"), randomBytes(31).toString("base64")]) {
      expect(() => parseMasterKey(bad)).to.throw(MasterKeyError, /openssl rand -base64 32/);
    }
    expect(() => createSecretBox(randomBytes(16))).to.throw(MasterKeyError, /32 bytes/);
  });
});
