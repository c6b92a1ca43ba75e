// The EVM indexer's inputs: the chains it indexes, the deployment schema name (what changes it and what
// does not) and the decoding of Ponder's checkpoint strings.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "chai";
import { ManifestError, readManifest } from "../../config/manifest";
import { evmChainsToIndex } from "../../indexer/evm/chains";
import { type ChainIdentity, deploymentSchemaName } from "../../indexer/evm/deploymentSchema";
import { decodePonderCheckpoint } from "../../indexer/evm/run";

const ENTRY = {
  chain: "base",
  chainId: 8453,
  rpcUrl: "https://base.example",
  registry: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
  priceFeed: "0x71041dddad3595F9CEd3DcCFBe3D1F4b0a16Bb70",
  deployBlock: 123,
};

function manifestFile(content: unknown): string {
  const path = join(mkdtempSync(join(tmpdir(), "evm-manifest-")), "manifest.json");
  writeFileSync(path, JSON.stringify(content));
  return path;
}

describe("EVM indexer deployments", () => {
  it("indexes the manifest's evm entries, as validated by the manifest reader", () => {
    const path = manifestFile({ evm: [ENTRY], solana: [] });
    expect(evmChainsToIndex(readManifest(path), path)).to.deep.equal([ENTRY]);
  });

  it("refuses a manifest without evm entries, naming the file", () => {
    const path = manifestFile({ solana: [] });
    expect(() => evmChainsToIndex(readManifest(path), path)).to.throw(
      ManifestError,
      `${path} has no "evm" entries`,
    );
  });

  it("derives the same deployment schema for the same history, a new one for a new block hash or registry", () => {
    const identity: ChainIdentity = {
      chain: "base",
      chainId: 8453,
      registry: ENTRY.registry as `0x${string}`,
      deployBlock: 123,
      deployBlockHash: `0x${"a".repeat(64)}`,
    };
    const name = deploymentSchemaName([identity]);
    expect(name).to.match(/^evm_[0-9a-f]{12}$/);
    expect(deploymentSchemaName([{ ...identity }])).to.equal(name);
    expect(deploymentSchemaName([{ ...identity, deployBlockHash: `0x${"b".repeat(64)}` }])).to.not.equal(
      name,
    );
    expect(deploymentSchemaName([{ ...identity, registry: `0x${"1".repeat(40)}` }])).to.not.equal(name);
  });

  it("decodes block number and time from Ponder's checkpoint string", () => {
    // 10 digits timestamp, 16 chain id, 16 block number, 16 tx index, 1 event type, 16 event index.
    const checkpoint = `1795314925${"8453".padStart(16, "0")}${"77".padStart(16, "0")}${"3".padStart(16, "0")}5${"9".padStart(16, "0")}`;
    expect(decodePonderCheckpoint(checkpoint)).to.deep.equal({
      blockTimestamp: 1795314925n,
      blockNumber: 77n,
    });
  });
});
