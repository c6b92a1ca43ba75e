// Ponder requires an API file. This app serves no data over HTTP: the API reads the mirror through `pg`.
// Ponder's own /ready and /status routes open its read-only pool, which sets session state (search_path,
// READ ONLY) that would leak into every other connection on the embedded database: never call them there.
import { Hono } from "hono";

export default new Hono();
