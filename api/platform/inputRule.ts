// The input rule every route and page shares, checked once per request as it is read: no text in the body
// (values and keys, at any depth), the query or the headers may hold a NUL or an unpaired UTF-16 surrogate,
// and a body may nest at most MAX_NESTING_DEPTH objects/arrays deep.
// Postgres text cannot hold NUL and its JSON input refuses lone surrogates, so such text would fail a
// statement (shared with concurrent requests by the batchers) instead of answering 400; unbounded nesting
// would overflow the stack of any recursive reader downstream (idempotency's canonical hash, say).
import type { IncomingMessage } from "node:http";
import { type ParsedUrlQuery, parse as parseQueryString } from "node:querystring";
import { ApiError } from "../../core/errors/catalogue";
import { readJsonBody } from "./jsonBody";
import type { InputIssue } from "./openapi/routeTable";

/** Deepest nesting of objects/arrays a request body may have (the body itself is 1); documented bodies are flat. */
export const MAX_NESTING_DEPTH = 32;

type InputPart = "body" | "query" | "header";

/** With the `u` flag a well-formed surrogate pair is one code point, not `Cs`: only lone halves match. */
const LONE_SURROGATE = /\p{Cs}/u;

const NUL_PROBLEM = "contains a NUL character (U+0000), which cannot be stored; remove it";
const SURROGATE_PROBLEM =
  "contains an unpaired UTF-16 surrogate (a lone \\uD800-\\uDFFF), which is not Unicode text; send the complete surrogate pair or remove it";
const DEPTH_PROBLEM = `nests objects or arrays more than ${MAX_NESTING_DEPTH} levels deep; send a flatter value`;

function textProblem(text: string): string | undefined {
  if (text.includes("\u0000")) return NUL_PROBLEM;
  return LONE_SURROGATE.test(text) ? SURROGATE_PROBLEM : undefined;
}

interface Frame {
  value: object;
  depth: number;
  parent: Frame | undefined;
  key: string;
}

/** A key as it can be shown in a message: its unstorable characters escaped. */
function printable(key: string): string {
  return textProblem(key) === undefined ? key : JSON.stringify(key).slice(1, -1);
}

/** Dotted path of a value, as zod issues name fields (`a.0.b`); "(root)" for the value itself. */
function pathOf(frame: Frame, key?: string): string {
  const keys = key === undefined ? [] : [printable(key)];
  for (let at: Frame | undefined = frame; at?.parent !== undefined; at = at.parent)
    keys.push(printable(at.key));
  return keys.length === 0 ? "(root)" : keys.reverse().join(".");
}

/**
 * The first part of `root` that breaks the input rule, or undefined. One iterative pass (a body nested
 * thousands deep must not overflow this check either); containers beyond the depth limit are not entered.
 */
export function firstInputProblem(root: unknown): InputIssue | undefined {
  if (typeof root === "string") {
    const message = textProblem(root);
    return message === undefined ? undefined : { path: "(root)", message };
  }
  if (root === null || typeof root !== "object") return undefined;
  const pending: Frame[] = [{ value: root, depth: 1, parent: undefined, key: "" }];
  for (let frame = pending.pop(); frame !== undefined; frame = pending.pop()) {
    if (frame.depth > MAX_NESTING_DEPTH) return { path: pathOf(frame), message: DEPTH_PROBLEM };
    const container = frame.value as Record<string, unknown>;
    const isArray = Array.isArray(container);
    for (const key in container) {
      if (!isArray) {
        const message = textProblem(key);
        if (message !== undefined) return { path: pathOf(frame, key), message };
      }
      const value = container[key];
      if (typeof value === "string") {
        const message = textProblem(value);
        if (message !== undefined) return { path: pathOf(frame, key), message };
      } else if (value !== null && typeof value === "object") {
        pending.push({ value, depth: frame.depth + 1, parent: frame, key });
      }
    }
  }
  return undefined;
}

/** The query string's parameters, parsed as Express's "simple" query parser does (node:querystring). */
export function queryParametersOf(url: string | undefined): ParsedUrlQuery | undefined {
  const start = url?.indexOf("?") ?? -1;
  return start === -1 ? undefined : parseQueryString((url as string).slice(start + 1));
}

function refusal(where: InputPart, issue: InputIssue): ApiError {
  const part = where === "header" ? "headers are" : `${where} is`;
  return new ApiError(
    "invalid_request",
    `The request ${part} invalid: ${issue.path}: ${issue.message}. See details.issues.`,
    { in: where, issues: [issue] },
  );
}

/**
 * Throws the 400 naming the first header, query parameter or body value that breaks the input rule.
 * Headers: Node's parser already refuses NUL and other control bytes and decodes values as Latin-1 (no
 * surrogates), unless run with --insecure-http-parser; checking them here keeps the rule independent of that.
 */
function assertInputRule(req: IncomingMessage, body: unknown): void {
  const header = firstInputProblem(req.headers);
  if (header !== undefined) throw refusal("header", header);
  const query = firstInputProblem(queryParametersOf(req.url));
  if (query !== undefined) throw refusal("query", query);
  const inBody = firstInputProblem(body);
  if (inBody !== undefined) throw refusal("body", inBody);
}

/**
 * The request's JSON body (readJsonBody) once the whole request passes the input rule; the one way every
 * route and page reads its input.
 */
export async function readRequestInput(req: IncomingMessage, limitBytes: number): Promise<unknown> {
  const body = await readJsonBody(req, limitBytes);
  assertInputRule(req, body);
  return body;
}
