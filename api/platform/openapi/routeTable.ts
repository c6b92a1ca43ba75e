// Route registration: one declaration per route gives its handler the validated input AND its entry in the
// OpenAPI 3.1 document, so the published document can never drift from what the server accepts. Every handler
// has one shape: it takes its input (the partner typed by the route's access) and returns its answer,
// `{ status, body, headers? }`; the one request sequence (api/platform/requestSequence.ts) does the rest.
import type { IncomingHttpHeaders } from "node:http";
import { type ZodType, z } from "zod";
import type { Environment } from "../../../core/environment";
import { ApiError, type ErrorCode, errorStatus } from "../../../core/errors/catalogue";
import type { PartnerContext } from "../../../services/partners/admission";
import type { KeyedRead } from "../../../services/partners/keyAuthentication";
import type { RateState } from "../../../services/partners/rateWindow";
import type { PartnerScope } from "../../../services/partners/scopes";
import { type CorsClass, corsClassOf, type PathCors } from "../cors";
import type { HostClass } from "../hosts";

/**
 * Who may call a route: anyone ("public"); anyone, counted per client address unless a key is sent
 * ("keyless"); anyone, counted per client address with the stricter limit of keyless writes
 * ("public-write"); or a partner key (with a scope).
 */
export type RouteAccess = "public" | "keyless" | "public-write" | { scope: PartnerScope } | "partner";

export interface RouteResponse {
  description: string;
  /** Body schema; omitted for responses without a JSON body. */
  schema?: ZodType;
  headers?: Record<string, string>;
  /** False for a body sent as-is, without `responseVersion` (the OpenAPI document itself). */
  versioned?: boolean;
}

export interface RouteSpec<Q extends ZodType, B extends ZodType> {
  method: "get" | "post" | "delete" | "patch";
  /** Path under /api, e.g. "/v1/keys" or "/v1/webhooks/:id" (`:name` is a path parameter). */
  path: string;
  summary: string;
  tag: string;
  access: RouteAccess;
  query?: Q;
  body?: B;
  /** Request headers the route reads, by name, with their description (documented, not validated). */
  headers?: Record<string, string>;
  /** Success responses by status. Error responses come from `errors`. */
  responses: Record<number, RouteResponse>;
  /** Error codes this route can answer with (beyond the invalid_request every validated route can give). */
  errors?: readonly ErrorCode[];
  /** Maps invalid input to a route-specific error instead of the generic invalid_request. */
  invalidInput?: (where: "query" | "body", issues: InputIssue[], value: unknown) => ApiError | undefined;
  /**
   * Which browser pages may call it (api/platform/cors.ts). Omit to take the access class's: keyless routes
   * `any-origin`, keyed routes `none` (declaring anything else on a keyed route is refused at start).
   */
  cors?: CorsClass;
}

export interface InputIssue {
  path: string;
  message: string;
}

/** The caller a route's access admits: a partner on keyed routes, maybe one on keyless routes, none otherwise. */
export type PartnerOfAccess<A extends RouteAccess> = A extends "public" | "public-write"
  ? undefined
  : A extends "keyless"
    ? PartnerContext | undefined
    : PartnerContext;

export interface RouteInput<Q extends ZodType, B extends ZodType, A extends RouteAccess, R = undefined> {
  query: z.output<Q>;
  body: z.output<B>;
  /** The body as parsed JSON, before validation (idempotency hashes it as sent). */
  rawBody: unknown;
  /** Method and route, e.g. `POST /api/v1/reservations/prepare` (idempotency records are per route). */
  route: string;
  /** The path's parameters (`:id`). */
  params: Readonly<Record<string, string>>;
  headers: IncomingHttpHeaders;
  partner: PartnerOfAccess<A>;
  /** The dataset the host serves (the sandbox host reads sandbox data). */
  environment: Environment;
  hostClass: HostClass;
  /** Where the call stands in its rate window (a keyed call's key, or a keyless call's address). */
  rate: RateState | undefined;
  /** Counts the call in its client address's keyless-write window too (429 past it): a read that also writes. */
  countPublicWrite: () => void;
  /** What the route's `readWithKey` read in the key's statement; undefined when no key statement ran. */
  keyedRead: R | undefined;
}

/** What a route answers; the transport writes it (JSON, with `responseVersion` unless the response opts out). */
export interface RouteResult {
  status: number;
  body: object;
  headers?: Readonly<Record<string, string>>;
}

export type RouteHandler<Q extends ZodType, B extends ZodType, A extends RouteAccess, R = undefined> = (
  input: RouteInput<Q, B, A, R>,
) => Promise<RouteResult> | RouteResult;

/**
 * A route's own read carried in its caller's key statement, one round trip for both (the identity check's and
 * validation's snapshot): built from the validated input before admission (undefined: no read to carry); its
 * result reaches the handler as `keyedRead`. What it throws is answered after admission, as field errors are.
 */
export type ReadWithKey<Q extends ZodType, B extends ZodType, R> = (input: {
  query: z.output<Q>;
  body: z.output<B>;
  environment: Environment;
}) => KeyedRead<R> | undefined;

/** A route: its declaration (documented in the OpenAPI document) and its handler. */
export type RouteDeclaration<Q extends ZodType, B extends ZodType, A extends RouteAccess, R> = RouteSpec<
  Q,
  B
> & {
  access: A;
  readWithKey?: ReadWithKey<Q, B, R>;
};

/** A registered route, as the request sequence serves it (api/platform/requestSequence.ts). */
export interface DeclaredRoute {
  spec: RouteDeclaration<ZodType, ZodType, RouteAccess, unknown>;
  handler: RouteHandler<ZodType, ZodType, RouteAccess, unknown>;
  /** `METHOD /api/path` as declared: the metrics label and the idempotency scope. */
  route: string;
  corsClass: CorsClass;
}

/** The route a request's method and path select, with the path's parameters as sent (still percent-encoded). */
export interface RouteMatch {
  route: DeclaredRoute;
  encodedParams: Record<string, string>;
}

interface PathTemplate {
  /** As declared, under /api: `/v1/webhooks/:id`. */
  path: string;
  /** Lower-case literal segments, and `:name` for a parameter. */
  segments: string[];
  /** The declared routes on this path by lower-case method. */
  methods: Map<string, DeclaredRoute>;
}

const EMPTY = z.object({});

/** Zod issues as a short list a client can act on: which field, what is wrong. */
export function issuesOf(error: z.ZodError): InputIssue[] {
  return error.issues.map((issue) => ({
    path: issue.path.map(String).join(".") || "(root)",
    message: issue.message,
  }));
}

/** The validated input, or the route's 400 naming what is wrong. */
export function parsed<T extends ZodType>(
  spec: Pick<RouteSpec<ZodType, ZodType>, "invalidInput">,
  schema: T,
  value: unknown,
  where: "query" | "body",
): z.output<T> {
  const result = schema.safeParse(value);
  if (!result.success) {
    throw (
      spec.invalidInput?.(where, issuesOf(result.error), value) ??
      new ApiError(
        "invalid_request",
        `The request ${where} is invalid: ${issuesOf(result.error)
          .slice(0, 3)
          .map((issue) => `${issue.path}: ${issue.message}`)
          .join("; ")}. See details.issues.`,
        { in: where, issues: issuesOf(result.error).slice(0, 20) },
      )
    );
  }
  return result.data;
}

/** A route's CORS class, from its declaration and access (api/platform/cors.ts). */
export function routeCorsClass(
  spec: Pick<RouteSpec<ZodType, ZodType>, "access" | "cors" | "method" | "path">,
): CorsClass {
  const keyed = spec.access !== "public" && spec.access !== "keyless" && spec.access !== "public-write";
  return corsClassOf(keyed, spec.cors, `${spec.method.toUpperCase()} ${spec.path}`);
}

/** The path's segments as matched: one trailing slash ignored, query aside. */
function segmentsOf(path: string): string[] {
  const trimmed = path.length > 1 && path.endsWith("/") ? path.slice(0, -1) : path;
  return trimmed.split("/");
}

/** The parameters of `segments` on `template`, or undefined when the path is not the template's. */
function paramsOn(template: PathTemplate, segments: readonly string[]): Record<string, string> | undefined {
  if (template.segments.length !== segments.length) return undefined;
  const params: Record<string, string> = {};
  for (let index = 0; index < segments.length; index += 1) {
    const expected = template.segments[index] as string;
    const actual = segments[index] as string;
    if (expected.startsWith(":")) {
      if (actual === "") return undefined;
      params[expected.slice(1)] = actual;
    } else if (expected !== actual.toLowerCase()) return undefined;
  }
  return params;
}

/**
 * The declared routes, for the request sequence and the OpenAPI document. Paths match in any case, with one
 * trailing slash ignored; a literal path is found before a template that would also match it, and HEAD is
 * answered as GET without its body.
 */
export class RouteTable {
  private readonly operations: RouteSpec<ZodType, ZodType>[] = [];
  /** Paths without parameters, by lower-case `/api/path`. */
  private readonly literal = new Map<string, PathTemplate>();
  /** Paths with parameters, in declaration order. */
  private readonly templates: PathTemplate[] = [];

  route<
    Q extends ZodType = typeof EMPTY,
    B extends ZodType = typeof EMPTY,
    const A extends RouteAccess = RouteAccess,
    R = undefined,
  >(spec: RouteDeclaration<Q, B, A, R>, handler: RouteHandler<Q, B, A, R>): void {
    const generic = spec as unknown as RouteDeclaration<ZodType, ZodType, RouteAccess, unknown>;
    this.operations.push(generic);
    const path = `/api${spec.path}`;
    const key = path.toLowerCase();
    let template = key.includes("/:")
      ? this.templates.find((t) => t.segments.join("/") === key)
      : this.literal.get(key);
    if (template === undefined) {
      template = { path: spec.path, segments: segmentsOf(key), methods: new Map() };
      if (key.includes("/:")) this.templates.push(template);
      else this.literal.set(key, template);
    }
    template.methods.set(spec.method, {
      spec: generic,
      handler: handler as unknown as RouteHandler<ZodType, ZodType, RouteAccess, unknown>,
      route: `${spec.method.toUpperCase()} ${path}`,
      corsClass: routeCorsClass(spec),
    });
  }

  /** The route serving `method` on `path`, or undefined (the caller answers 404). */
  match(method: string, path: string): RouteMatch | undefined {
    const found = this.pathOf(path);
    if (found === undefined) return undefined;
    const wanted = method === "HEAD" ? "get" : method.toLowerCase();
    const route = found.template.methods.get(wanted);
    return route === undefined ? undefined : { route, encodedParams: found.params };
  }

  /** The declared path `path` matches and its methods' CORS classes (a preflight's answer), or undefined. */
  corsOf(path: string): { path: string; methods: PathCors } | undefined {
    const found = this.pathOf(path);
    if (found === undefined) return undefined;
    const methods: PathCors = new Map();
    for (const [method, route] of found.template.methods) methods.set(method, route.corsClass);
    return { path: found.template.path, methods };
  }

  private pathOf(path: string): { template: PathTemplate; params: Record<string, string> } | undefined {
    const trimmed = path.length > 1 && path.endsWith("/") ? path.slice(0, -1) : path;
    const literal = this.literal.get(trimmed.toLowerCase());
    if (literal !== undefined) return { template: literal, params: {} };
    const segments = segmentsOf(path);
    for (const template of this.templates) {
      const params = paramsOn(template, segments);
      if (params !== undefined) return { template, params };
    }
    return undefined;
  }

  /** Every registered route, for the OpenAPI document and the malformed-input test. */
  specs(): readonly RouteSpec<ZodType, ZodType>[] {
    return this.operations;
  }
}

/** Status of each documented error code, grouped: the document lists one envelope response per status. */
export function errorStatuses(codes: readonly ErrorCode[]): Map<number, ErrorCode[]> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const status = errorStatus(code);
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return byStatus;
}
