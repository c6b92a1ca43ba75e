// The roles as production runs them: bundled by `npm run build` (scripts/build/roles.ts), built once per test
// process before the first role a test starts.
import { buildRoles, roleBundleOf } from "../../scripts/build/roles";

let built = false;

/** The compiled bundle of a role's entry (e.g. "api/main.ts"), built on first use. */
export function compiledRole(entry: string): string {
  if (!built) {
    buildRoles();
    built = true;
  }
  return roleBundleOf(entry);
}
