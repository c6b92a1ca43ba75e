// The committed ABI modules (contracts/abi/*.ts) must equal the ABIs of the compiled contracts.
import { expect } from "chai";
import { identityRegistryAbi } from "../../contracts/abi/identityRegistry";
import { localPriceFeedAbi } from "../../contracts/abi/localPriceFeed";
import { readArtifact } from "../../scripts/evm/artifacts";
import { ABI_MODULES } from "../../scripts/evm/export-abi";
import { inProcessNetwork } from "./fixture";

describe("committed contract ABIs", () => {
  before(async () => {
    await inProcessNetwork(); // compiles the current sources
  });

  const committed = { identityRegistryAbi, localPriceFeedAbi } as Record<string, unknown>;

  for (const { contractName, exportName, file } of ABI_MODULES) {
    it(`${file} matches the compiled ${contractName} (regenerate with npm run abi:contracts)`, () => {
      expect(committed[exportName], `${exportName} is not imported by this test`).to.not.equal(undefined);
      expect(committed[exportName]).to.deep.equal(readArtifact(contractName).abi);
    });
  }
});
