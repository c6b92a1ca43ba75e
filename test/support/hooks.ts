// Mocha root hooks, loaded through .mocharc.json.
import { stopSharedEmbeddedServer } from "./testDatabase";

export const mochaHooks = {
  async afterAll() {
    await stopSharedEmbeddedServer();
  },
};
