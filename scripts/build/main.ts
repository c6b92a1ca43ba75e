// `npm run build`: the production roles compiled into dist/roles/ (scripts/build/roles.ts). `npm run api`,
// `worker` and `indexer:*` build first and run the bundles; `npm start` and the tests run the sources.
import { buildRoles } from "./roles";

const started = Date.now();
const bundles = buildRoles();
console.log(`built ${Object.values(bundles).join(", ")} in ${Date.now() - started} ms`);
