// The deployment manifest: one schema for every reader, refusals that name the field and the file, and a
// writer that merges an entry without dropping other chains or sections.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "chai";
import {
  type EvmManifestEntry,
  ManifestError,
  readManifest,
  type SolanaManifestEntry,
  writeManifestEntries,
} from "../../config/manifest";

const EVM: EvmManifestEntry = {
  chain: "base",
  chainId: 8453,
  rpcUrl: "https://base.example",
  registry: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
  priceFeed: "0x71041dddad3595F9CEd3DcCFBe3D1F4b0a16Bb70",
  deployBlock: 123,
};
const SOLANA: SolanaManifestEntry = {
  chain: "solana",
  rpcUrl: "https://api.mainnet-beta.solana.com",
  wsUrl: "wss://api.mainnet-beta.solana.com",
  programId: "11111111111111111111111111111111",
  priceAccount: "SysvarC1ock11111111111111111111111111111111",
  configAccount: "SysvarRent111111111111111111111111111111111",
  deploySlot: 42,
};

const freshPath = () => join(mkdtempSync(join(tmpdir(), "manifest-")), "manifest.json");

function manifestFile(content: unknown): string {
  const path = freshPath();
  writeFileSync(path, typeof content === "string" ? content : JSON.stringify(content));
  return path;
}

/** The message of the ManifestError reading `content` throws. */
function refusal(content: unknown): { path: string; message: string } {
  const path = manifestFile(content);
  try {
    readManifest(path);
  } catch (error) {
    expect(error).to.be.instanceOf(ManifestError);
    return { path, message: (error as Error).message };
  }
  throw new Error("expected the manifest to be refused");
}

describe("config: deployment manifest", () => {
  it("reads each chain's sandbox deployment, and refuses one that is the production registry or program", () => {
    const evm = { ...EVM, sandbox: { registry: "0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0" } };
    const solana = {
      ...SOLANA,
      sandbox: {
        programId: "Stake11111111111111111111111111111111111111",
        priceAccount: "SysvarC1ock11111111111111111111111111111111",
        configAccount: "Vote111111111111111111111111111111111111111",
      },
    };
    const manifest = readManifest(manifestFile({ evm: [evm], solana: [solana] }));
    expect(manifest.evm[0]?.sandbox).to.deep.equal(evm.sandbox);
    expect(manifest.solana[0]?.sandbox).to.deep.equal(solana.sandbox);

    const sameRegistry = refusal({
      evm: [{ ...EVM, sandbox: { registry: EVM.registry.toLowerCase() } }],
    }).message;
    expect(sameRegistry).to.contain("evm[0].sandbox.registry is the production registry");
    const sameProgram = refusal({
      solana: [{ ...solana, sandbox: { ...solana.sandbox, programId: SOLANA.programId } }],
    }).message;
    expect(sameProgram).to.contain("solana[0].sandbox.programId is the production programId");
    expect(refusal({ evm: [{ ...EVM, sandbox: { registry: "0x12" } }] }).message).to.contain(
      "evm[0].sandbox.registry must be a 0x-prefixed 20-byte address",
    );
  });

  it("reads a valid manifest, keeping sections it does not know", () => {
    const manifest = readManifest(manifestFile({ evm: [EVM], solana: [SOLANA], notes: { owner: "ops" } }));
    expect(manifest.evm).to.deep.equal([EVM]);
    expect(manifest.solana).to.deep.equal([SOLANA]);
    expect(manifest.notes).to.deep.equal({ owner: "ops" });
  });

  it("treats a missing family as empty and a Solana entry without websocket as valid", () => {
    const { wsUrl: _wsUrl, ...polling } = SOLANA;
    expect(readManifest(manifestFile({ solana: [polling] }))).to.deep.include({ evm: [], solana: [polling] });
  });

  it("refuses a bad field, naming the field and the file", () => {
    const { path, message } = refusal({ evm: [{ ...EVM, registry: "0x12" }], solana: [] });
    expect(message).to.contain(path).and.contain("evm[0].registry must be a 0x-prefixed 20-byte address");
  });

  it("keeps an EVM entry's websocket and refuses one that is not a ws(s) URL", () => {
    const withWebsocket = { ...EVM, wsUrl: "wss://base-mainnet.example/ws" };
    expect(readManifest(manifestFile({ evm: [withWebsocket] })).evm).to.deep.equal([withWebsocket]);
    expect(refusal({ evm: [{ ...EVM, wsUrl: "https://base-mainnet.example" }] }).message).to.contain(
      "evm[0].wsUrl must be a ws(s) URL",
    );
  });

  it("keeps a chain's explorer templates and refuses one that is not https or lacks its placeholder", () => {
    const explorer = {
      tx: "https://basescan.org/tx/{hash}",
      address: "https://basescan.org/address/{address}",
    };
    expect(readManifest(manifestFile({ evm: [{ ...EVM, explorer }] })).evm[0]?.explorer).to.deep.equal(
      explorer,
    );
    expect(
      refusal({ evm: [{ ...EVM, explorer: { ...explorer, tx: "http://x.test/tx/{hash}" } }] }).message,
    ).to.contain("evm[0].explorer.tx must be an https URL");
    expect(
      refusal({ solana: [{ ...SOLANA, explorer: { ...explorer, address: "https://x.test/a" } }] }).message,
    ).to.contain("solana[0].explorer.address must contain {address}");
  });

  it("refuses a missing field, naming it", () => {
    const { priceAccount: _priceAccount, ...entry } = SOLANA;
    expect(refusal({ solana: [entry] }).message).to.contain("solana[0].priceAccount is missing");
  });

  it("names every bad field at once, with what each must be", () => {
    const { message } = refusal({
      evm: [{ ...EVM, chainId: "8453", deployBlock: -1, chain: "Base" }],
      solana: [{ ...SOLANA, programId: "not base58!" }],
    });
    expect(message)
      .to.contain("evm[0].chainId must be a number")
      .and.contain("evm[0].deployBlock must be the block number")
      .and.contain("evm[0].chain must be a lowercase name")
      .and.contain("solana[0].programId must be a base58 public key");
  });

  it("refuses a chain name used twice across families", () => {
    expect(refusal({ evm: [EVM], solana: [{ ...SOLANA, chain: "base" }] }).message).to.contain(
      'solana[0].chain names "base" again',
    );
  });

  it("refuses a file that is missing or not JSON, naming it and what to do", () => {
    const missing = join(mkdtempSync(join(tmpdir(), "manifest-")), "absent.json");
    expect(() => readManifest(missing)).to.throw(ManifestError, `No deployment manifest at ${missing}`);
    expect(() => readManifest(missing)).to.throw(/DEPLOYMENT_MANIFEST/);
    const { path, message } = refusal("{ evm: [");
    expect(message).to.contain(`${path} is not JSON`);
  });

  describe("writer", () => {
    it("creates the file when there is none", () => {
      const path = freshPath();
      writeManifestEntries(path, { evm: [EVM] });
      expect(readManifest(path)).to.deep.equal({ evm: [EVM], solana: [] });
    });

    it("replaces the entry of the same chain and keeps every other entry and section", () => {
      const other = { ...EVM, chain: "optimism", chainId: 10 };
      const path = manifestFile({ evm: [EVM, other], solana: [SOLANA], notes: { owner: "ops" } });
      const redeployed = { ...EVM, deployBlock: 999 };
      writeManifestEntries(path, { evm: [redeployed] });
      const written = JSON.parse(readFileSync(path, "utf8"));
      expect(written.evm).to.deep.equal([other, redeployed]);
      expect(written.solana).to.deep.equal([SOLANA]);
      expect(written.notes).to.deep.equal({ owner: "ops" });
      writeManifestEntries(path, { solana: [{ ...SOLANA, deploySlot: 7 }] });
      expect(readManifest(path).solana).to.deep.equal([{ ...SOLANA, deploySlot: 7 }]);
      expect(readManifest(path).evm).to.deep.equal([other, redeployed]);
    });

    it("refuses to write an invalid entry or over an invalid file, leaving the file as it was", () => {
      const path = manifestFile({ evm: [{ ...EVM, rpcUrl: "base.example" }] });
      const before = readFileSync(path, "utf8");
      expect(() => writeManifestEntries(path, { solana: [SOLANA] })).to.throw(ManifestError, "evm[0].rpcUrl");
      expect(readFileSync(path, "utf8")).to.equal(before);
      const fresh = freshPath();
      expect(() => writeManifestEntries(fresh, { evm: [{ ...EVM, chainId: 0 }] })).to.throw(
        ManifestError,
        "evm[0].chainId must be a positive integer",
      );
      expect(existsSync(fresh)).to.equal(false);
    });
  });
});
