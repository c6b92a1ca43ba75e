// Route registration: one declaration per route gives its handler the validated input AND its entry in the
// OpenAPI 3.1 document, so the published document can never drift from what the server accepts. Every handler
// has one shape, whichever transport serves it: it takes its input (the partner typed by the route's access)
// and returns its answer, `{ status, body, headers? }`; the transport writes it.
import type { IncomingHttpHeaders } from "node:http";
import { type RequestHandler, Router } from "express";
import { type ZodType, z } from "zod";
import type { Environment } from "../../../core/environment";
import { ApiError, type ErrorCode, errorStatus } from "../../../core/errors/catalogue";
import type { PartnerContext } from "../../../services/partners/admission";
import type { Authenticator } from "../../../services/partners/keyAuthentication";
import type { RateState } from "../../../services/partners/rateWindow";
import type { PartnerScope } from "../../../services/partners/scopes";
import { type CorsClass, type CorsLayer, corsClassOf, type PathCors } from "../cors";
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
  /** Express path under /api, e.g. "/v1/keys" or "/v1/webhooks/:id". */
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

export interface RouteInput<Q extends ZodType, B extends ZodType, A extends RouteAccess> {
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
}

/** What a route answers; the transport writes it (JSON, with `responseVersion` unless the response opts out). */
export interface RouteResult {
  status: number;
  body: object;
  headers?: Readonly<Record<string, string>>;
}

export type RouteHandler<Q extends ZodType, B extends ZodType, A extends RouteAccess> = (
  input: RouteInput<Q, B, A>,
) => Promise<RouteResult> | RouteResult;

/** A partner route with a JSON body, served without Express (api/platform/directRoutes.ts). */
export type DirectRouteSpec<B extends ZodType> = Omit<
  RouteSpec<typeof EMPTY, B>,
  "method" | "access" | "query" | "cors"
> & {
  method: "post";
  access: { scope: PartnerScope };
  body: B;
};

/** A keyless-or-keyed read with a query, served without Express (api/platform/directRoutes.ts). */
export type DirectReadSpec<Q extends ZodType> = Omit<
  RouteSpec<Q, typeof EMPTY>,
  "method" | "access" | "body" | "cors"
> & {
  method: "get";
  access: "keyless";
  query: Q;
};

export interface DirectReadInput<Q extends ZodType> {
  query: z.output<Q>;
  /** The dataset the host serves (the sandbox host reads sandbox data). */
  environment: Environment;
  /**
   * Admits the caller once, before any check of its own: a sent key as on keyed routes (undefined without
   * one, counted per client address instead). `authenticator` lets the key statement carry the route's read.
   */
  admit: (authenticator?: Authenticator) => Promise<PartnerContext | undefined>;
  /**
   * Counts the call in the client address's keyless-write window too (429 past it), after `admit`: for a read
   * that also writes, which must not take the read's cheaper budget.
   */
  countPublicWrite: () => void;
}

export type DirectReadHandler<Q extends ZodType> = (input: DirectReadInput<Q>) => Promise<DirectResult>;

export interface DirectInput<B extends ZodType> {
  body: z.output<B>;
  /** The body as parsed JSON, before validation (idempotency hashes it as sent). */
  rawBody: unknown;
  headers: IncomingHttpHeaders;
  /**
   * Admits the caller (key, host, rate limit, scope) and returns it; the handler calls it once, before any
   * check of its own, so a refused caller learns only that. `authenticator` lets the key statement carry
   * the route's own read (see PartnerAdmission).
   */
  admit: (authenticator?: Authenticator) => Promise<PartnerContext>;
  /** Method and route, e.g. `POST /api/v1/launches/validate`. */
  route: string;
}

export type DirectResult = RouteResult;

export type DirectHandler<B extends ZodType> = (input: DirectInput<B>) => Promise<DirectResult>;

export interface DirectWriteRoute {
  spec: DirectRouteSpec<ZodType>;
  handler: DirectHandler<ZodType>;
  /** `POST /api/v1/...`, as matched. */
  route: string;
}

export interface DirectReadRoute {
  spec: DirectReadSpec<ZodType>;
  handler: DirectReadHandler<ZodType>;
  /** `GET /api/v1/...`, as matched. */
  route: string;
}

export type DirectRoute = DirectWriteRoute | DirectReadRoute;

export function isDirectRead(route: DirectRoute): route is DirectReadRoute {
  return route.spec.method === "get";
}

/** Builds the authentication middleware for a route's access rule (see api/platform/partnerAuth.ts). */
export type AccessGuard = (access: RouteAccess) => RequestHandler | undefined;

interface Operation {
  spec: RouteSpec<ZodType, ZodType>;
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

/** Registers validated routes on an Express router and remembers them for the OpenAPI document. */
export class RouteTable {
  readonly router = Router();
  /**
   * Each route's CORS step and every path's OPTIONS answer, mounted before the body is read so that a page also
   * reads the envelope of a refused body.
   */
  readonly corsRouter = Router();
  private readonly operations: Operation[] = [];
  /** Direct routes by lower-case `METHOD /api/path`. */
  readonly direct = new Map<string, DirectRoute>();
  private readonly corsByPath = new Map<string, PathCors>();

  constructor(
    private readonly guard: AccessGuard,
    private readonly cors: CorsLayer,
    /** The keyless-write window (partnerAuth's), for RouteInput.countPublicWrite. */
    private readonly countPublicWrite: (
      hostClass: HostClass,
      clientAddress: string | undefined,
      setHeader: (name: string, value: string) => void,
    ) => void,
  ) {}

  /** Records `method` on `path` with its CORS class; the path's OPTIONS answer reads them at request time. */
  private serveCors(path: string, method: string, corsClass: CorsClass): void {
    let methods = this.corsByPath.get(path);
    if (methods === undefined) {
      methods = new Map();
      this.corsByPath.set(path, methods);
      this.corsRouter.options(path, this.cors.preflight(`/api${path}`, methods));
    }
    methods.set(method, corsClass);
    const actual = this.cors.actual(corsClass);
    if (actual !== undefined) this.corsRouter[method as RouteSpec<ZodType, ZodType>["method"]](path, actual);
  }

  route<
    Q extends ZodType = typeof EMPTY,
    B extends ZodType = typeof EMPTY,
    const A extends RouteAccess = RouteAccess,
  >(spec: RouteSpec<Q, B> & { access: A }, handler: RouteHandler<Q, B, A>): void {
    this.operations.push({ spec: spec as unknown as RouteSpec<ZodType, ZodType> });
    this.serveCors(spec.path, spec.method, routeCorsClass(spec));
    const guard = this.guard(spec.access);
    const route = `${spec.method.toUpperCase()} /api${spec.path}`;
    const run: RequestHandler = async (req, res) => {
      const generic = spec as unknown as RouteSpec<ZodType, ZodType>;
      const query = parsed(generic, spec.query ?? EMPTY, req.query, "query") as z.output<Q>;
      const body = (spec.body ? parsed(generic, spec.body, req.body ?? {}, "body") : {}) as z.output<B>;
      const setHeader = (name: string, value: string) => res.setHeader(name, value);
      const result = await handler({
        query,
        body,
        rawBody: req.body,
        route,
        params: req.params as Record<string, string>,
        headers: req.headers,
        partner: res.locals.partner as PartnerOfAccess<A>,
        environment: res.locals.hostEnvironment,
        hostClass: res.locals.hostClass,
        rate: res.locals.rateLimit,
        countPublicWrite: () =>
          this.countPublicWrite(res.locals.hostClass, req.socket.remoteAddress, setHeader),
      });
      if (result.headers !== undefined) res.set(result.headers);
      if (spec.responses[result.status]?.versioned === false) {
        res.status(result.status).type("application/json").send(JSON.stringify(result.body));
      } else {
        res.status(result.status).json(result.body);
      }
    };
    this.router[spec.method](spec.path, ...(guard ? [guard] : []), run);
  }

  /**
   * A hot route served straight from node:http instead of through Express: the same declaration, checks and
   * answers, without the middleware chain's cost per request (see docs/api.md).
   */
  directRoute<B extends ZodType>(spec: DirectRouteSpec<B>, handler: DirectHandler<B>): void {
    this.operations.push({ spec: spec as unknown as RouteSpec<ZodType, ZodType> });
    this.serveCors(spec.path, spec.method, "none");
    const route = `${spec.method.toUpperCase()} /api${spec.path}`;
    this.direct.set(route.toLowerCase(), {
      spec: spec as unknown as DirectRouteSpec<ZodType>,
      handler: handler as DirectHandler<ZodType>,
      route,
    });
  }

  /** A hot keyless read served straight from node:http (the identity check), like directRoute. */
  directRead<Q extends ZodType>(spec: DirectReadSpec<Q>, handler: DirectReadHandler<Q>): void {
    this.operations.push({ spec: spec as unknown as RouteSpec<ZodType, ZodType> });
    this.serveCors(spec.path, spec.method, routeCorsClass(spec));
    const route = `GET /api${spec.path}`;
    this.direct.set(route.toLowerCase(), {
      spec: spec as unknown as DirectReadSpec<ZodType>,
      handler: handler as DirectReadHandler<ZodType>,
      route,
    });
  }

  /** Every registered route, for the OpenAPI document and the malformed-input test. */
  specs(): readonly RouteSpec<ZodType, ZodType>[] {
    return this.operations.map((operation) => operation.spec);
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
