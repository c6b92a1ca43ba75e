// The public web pages: `/` (the check), `/identity` (an identity's timeline) and `/protected` (the list), plus
// the lookup script. Each page reads through the same service calls as the public endpoint it shows, on the
// host's dataset, validates its query with the endpoint's schema, and is counted as a keyless call of the
// client's address (never against a partner key, whatever headers come with it).
import { type Request, type Response, Router } from "express";
import { html } from "hono/html";
import { ApiError } from "../../core/errors/catalogue";
import { errorResponseOf } from "../platform/errors";
import { parsed } from "../platform/openapi/routeTable";
import type { Platform } from "../platform/platform";
import { checkQuery, statusQuery } from "../routes/identitySchemas";
import {
  PROTECTION_STATUS_FILTERS,
  protectedIdentitiesPage,
  protectedIdentitiesQuery,
} from "../routes/protectedIdentities";
import { LOOKUP_SCRIPT, LOOKUP_SCRIPT_PATH, PAGE_CONTENT_SECURITY_POLICY } from "./assets";
import { queryOf } from "./format";
import { identityPage } from "./identityPage";
import { type Frame, layout, type PageName } from "./layout";
import { type LookupInput, lookupPage } from "./lookupPage";
import { type ProtectedFilters, protectedPage } from "./protectedPage";

interface Rendered {
  status: number;
  title: string;
  body: unknown;
}

/**
 * The query's fields as the endpoint receives them, a form's empty optional field left out as a hand-written
 * query would leave it. A repeated field stays an array, which the endpoint's schema refuses.
 */
function queryFields(req: Request, names: readonly string[]): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const name of names) {
    const value = req.query[name];
    if (value !== undefined && value !== "") fields[name] = value;
  }
  return fields;
}

/** The single-valued fields, to show again in a form. */
function shownFields(fields: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(fields).filter((entry): entry is [string, string] => typeof entry[1] === "string"),
  );
}

/** The message a page shows for a refused request (the API's own wording). */
function problemOf(error: unknown, log: (message: string) => void): { status: number; message: string } {
  const { status, body } = errorResponseOf(error, log, undefined);
  const message = (body as { error?: { message?: string } }).error?.message ?? "The request failed.";
  return { status, message };
}

function errorBody(message: string) {
  return html`<h1>Not answered</h1>
<p class="problem" role="alert" id="problem">${message}</p>
<p><a href="/">Check a name</a></p>`;
}

/** An identity nobody reserved, locked, launched or blocked: the endpoint's 404, said for a person. */
function noRecordBody(key: string) {
  const [name, ticker] = key.split("::");
  return html`<h1>No record of <code>${key}</code></h1>
<p role="alert" id="problem">Nobody has reserved, locked, launched or blocked this identity on this host's data, so it has no timeline.</p>
<p><a href="/${queryOf({ name, ticker })}">Check ${key}</a></p>`;
}

export function webPages(platform: Platform, log: (message: string) => void): Router {
  const { services, now } = platform;
  const router = Router();

  const send = async (
    req: Request,
    res: Response,
    page: PageName,
    build: (frame: Frame) => Promise<Rendered>,
  ): Promise<void> => {
    res.setHeader("Content-Security-Policy", PAGE_CONTENT_SECURITY_POLICY);
    res.type("html");
    const environment = res.locals.hostEnvironment;
    const frame: Frame = {
      title: "",
      page,
      environment,
      chains: null,
      adapterWhileBehind: (chain) => services.identity.adapterWhileBehind(environment, chain),
      nowMs: now(),
    };
    let rendered: Rendered;
    try {
      platform.countKeyless(req, res);
      frame.chains = await services.mirror.chainHealth().catch(() => null);
      rendered = await build(frame);
    } catch (error) {
      const problem = problemOf(error, log);
      rendered = { status: problem.status, title: "Not answered", body: errorBody(problem.message) };
      frame.page = "error";
    }
    frame.title = rendered.title;
    res.status(rendered.status).send(String(await layout(frame, rendered.body)));
  };

  router.get("/", (req, res) =>
    send(req, res, "lookup", async (frame) => {
      const fields = queryFields(req, ["name", "ticker", "chain", "launcher"]);
      const input: LookupInput = shownFields(fields);
      const sandbox = frame.environment === "sandbox";
      const view = { input, chains: frame.chains, sandbox, nowMs: frame.nowMs };
      if (fields.name === undefined && fields.ticker === undefined) {
        return { status: 200, title: "Check a name", body: await lookupPage(view) };
      }
      try {
        const query = parsed({}, checkQuery, fields, "query");
        const result = await services.identity.check(frame.environment, query, null);
        return {
          status: 200,
          title: `${result.identityKey}: ${result.status}`,
          body: await lookupPage({ ...view, result }),
        };
      } catch (error) {
        if (!(error instanceof ApiError) || error.status !== 400) throw error;
        return {
          status: 400,
          title: "Check a name",
          body: await lookupPage({ ...view, problem: error.message }),
        };
      }
    }),
  );

  router.get("/identity", (req, res) =>
    send(req, res, "identity", async (frame) => {
      const { key } = parsed({}, statusQuery, queryFields(req, ["key"]), "query");
      const view = await services.identity.status(frame.environment, key).catch((error: unknown) => {
        if (error instanceof ApiError && error.code === "identity_not_found") return undefined;
        throw error;
      });
      if (view === undefined) return { status: 404, title: `No record of ${key}`, body: noRecordBody(key) };
      return {
        status: 200,
        title: `Timeline of ${view.identityKey}`,
        body: await identityPage(view, frame.nowMs),
      };
    }),
  );

  router.get("/protected", (req, res) =>
    send(req, res, "protected", async (frame) => {
      const fields = queryFields(req, ["q", "chain", "status", "cursor", "limit"]);
      const shown = shownFields(fields);
      const filters: ProtectedFilters = { ...shown, status: shown.status ?? "active" };
      const view = {
        filters,
        statusFilters: PROTECTION_STATUS_FILTERS,
        chains: frame.chains,
        sandbox: frame.environment === "sandbox",
        nowMs: frame.nowMs,
      };
      try {
        const query = parsed({}, protectedIdentitiesQuery, fields, "query");
        const page = await protectedIdentitiesPage(services.mirror, query);
        return { status: 200, title: "Protected identities", body: await protectedPage({ ...view, page }) };
      } catch (error) {
        if (!(error instanceof ApiError) || error.status !== 400) throw error;
        return {
          status: 400,
          title: "Protected identities",
          body: await protectedPage({ ...view, problem: error.message }),
        };
      }
    }),
  );

  router.get(LOOKUP_SCRIPT_PATH, (_req, res) => {
    res.setHeader("Cache-Control", "public, max-age=31536000, immutable");
    res.type("text/javascript").send(LOOKUP_SCRIPT);
  });
  return router;
}
