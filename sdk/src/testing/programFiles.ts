// The committed programs (programs/<name>/build/<name>.so): beside the bundle in the published package
// (scripts/sdk/build.ts copies them to dist/programs/), under the repository's programs/ when run from its sources.
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { SdkError } from "../errors";

export type IdentityProgramName = "identity_registry" | "guarded_launchpad";

/** The ELF of `name`. */
export function readProgram(name: IdentityProgramName): Uint8Array {
  const places = [
    new URL(`./programs/${name}.so`, import.meta.url),
    new URL(`../../../programs/${name}/build/${name}.so`, import.meta.url),
  ].map((url) => fileURLToPath(url));
  const path = places.find((place) => existsSync(place));
  if (path === undefined) {
    throw new SdkError(`${name}.so is missing (looked at ${places.join(", ")}): reinstall the SDK.`);
  }
  return readFileSync(path);
}
