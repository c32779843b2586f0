/**
 * The reviewers' page under `/review` (docs/approval.md): sign-in with a reviewer token, the queue,
 * a request page, decisions. Server-rendered HTML, no script (the Content-Security-Policy forbids
 * any), forms posted as `application/x-www-form-urlencoded` (parsed only in this plugin's context:
 * the API stays JSON-only).
 *
 * Cross-site request forgery, three independent defences on every POST:
 * - a synchronizer token from `@fastify/csrf-protection` (its secret in an HttpOnly cookie, each
 *   token bound to the session cookie's value through an HMAC, so a token from another session or a
 *   tossed cookie does not pass);
 * - the session cookie is `SameSite=Strict`, so a cross-site form post arrives without a session;
 * - the `Origin` header (and `Sec-Fetch-Site`, when a browser sends them) must be this service's
 *   own origin.
 */
import { randomBytes } from "node:crypto";
import fastifyCookie from "@fastify/cookie";
import fastifyCsrf from "@fastify/csrf-protection";
import fastifyFormbody from "@fastify/formbody";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { ApiError } from "../api-error";
import type { OperatorLayer } from "../layer";
import type { MemoryStore } from "../memory/store";
import type { ApprovalStore, Decision, StoredRequest } from "../store/store";
import { tokenDigest, reviewerOfDigest, TokenFileError } from "../tokens";
import type { Html } from "./html";
import { memoryRoutes } from "./memory-routes";
import { rememberView } from "./memory-view";
import { SESSION_COOKIE, Sessions } from "./sessions";
import { capturedSource } from "./source";
import { errorPage, loginPage, queuePage, requestPage, STYLESHEET, type PageContext } from "./views";
import { COVERAGE_STYLESHEET } from "./coverage";

export interface PageOptions {
  readonly store: ApprovalStore;
  readonly layer: OperatorLayer;
  readonly tokensFile: string;
  readonly rememberNote: string;
  /** The service's decision (the API's): resolves once committed, throws `ApiError`. */
  readonly decide: (reviewer: string, requestId: string, decision: Decision, feedback: string | undefined) => Promise<void>;
  /** The approval memory (service/memory/): history, remembered rules, and their part of a request page. */
  readonly memory?: MemoryStore;
}

const CSRF_COOKIE = "clauz3_csrf";
const DECISIONS = new Set<string>(["approved_once", "approved_remember", "changes_requested", "rejected"]);
/** A form body: the feedback (20,000 characters at most) percent-encoded, with room to spare. */
const FORM_BODY_LIMIT = 256 * 1024;

/** No script, no framing, nothing loaded from elsewhere: escaping is the first defence, this the second. */
const SECURITY_HEADERS = {
  "content-security-policy": "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  "x-frame-options": "DENY",
  "x-content-type-options": "nosniff",
  // Not no-referrer: under it a browser sends `Origin: null` with the page's own form posts.
  "referrer-policy": "same-origin",
  "cache-control": "no-store",
};

function sendPage(reply: FastifyReply, status: number, page: Html): FastifyReply {
  return reply.code(status).headers(SECURITY_HEADERS).type("text/html; charset=utf-8").send(page.markup);
}

/** Refuse a POST that a browser says comes from another origin (a missing header is left to the token). */
function sameOrigin(request: FastifyRequest): boolean {
  const origin = request.headers.origin;
  if (origin !== undefined && origin !== `${request.protocol}://${request.headers.host ?? ""}`) return false;
  const site = request.headers["sec-fetch-site"];
  return site === undefined || site === "same-origin" || site === "none";
}

/** What a form token is bound to: the session cookie as presented (never empty, which the token library refuses). */
function sessionBinding(request: FastifyRequest): string {
  const id = request.cookies[SESSION_COOKIE];
  return id === undefined ? "signed-out" : `session:${id}`;
}

function field(body: unknown, name: string): string | undefined {
  const value = body !== null && typeof body === "object" ? (body as Record<string, unknown>)[name] : undefined;
  return typeof value === "string" ? value : undefined;
}

export async function reviewPage(app: FastifyInstance, options: PageOptions): Promise<void> {
  const { store, layer, tokensFile, rememberNote } = options;
  const sessions = new Sessions(tokensFile);
  const hmacKey = randomBytes(32);

  await app.register(fastifyCookie);
  await app.register(fastifyFormbody, { bodyLimit: FORM_BODY_LIMIT });
  await app.register(fastifyCsrf, {
    sessionPlugin: "@fastify/cookie",
    cookieKey: CSRF_COOKIE,
    cookieOpts: { path: "/review", sameSite: "strict", httpOnly: true },
    // Each token is bound to the session cookie (or its absence, before sign-in).
    getUserInfo: sessionBinding,
    csrfOpts: { hmacKey, userInfo: true },
  });

  const csrfOf = (request: FastifyRequest, reply: FastifyReply): string => reply.generateCsrf({ userInfo: sessionBinding(request) });
  const reviewerOf = (request: FastifyRequest): string | undefined => sessions.reviewer(request.cookies[SESSION_COOKIE]);
  const context = (request: FastifyRequest, reply: FastifyReply, reviewer: string): PageContext => ({ reviewer, csrf: csrfOf(request, reply), rememberNote });
  const requestContext = async (request: FastifyRequest, reply: FastifyReply, reviewer: string, stored: StoredRequest): Promise<PageContext> =>
    options.memory ? { ...context(request, reply, reviewer), remember: await rememberView(options.memory, stored) } : context(request, reply, reviewer);

  // Every POST: from this origin, then with a valid token for this session (the body is parsed by then).
  const guardPost = (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void): void => {
    if (!sameOrigin(request)) return done(new ApiError(403, "cross-origin", "this form was posted from another site, so it was refused"));
    app.csrfProtection(request, reply, done);
  };

  app.setErrorHandler((error: FastifyError | Error, request, reply) => {
    // The error may be the tokens file itself: then the page is shown as to a visitor.
    let reviewer: string | undefined;
    try {
      reviewer = reviewerOf(request);
    } catch {
      reviewer = undefined;
    }
    const shown = reviewer ? { reviewer, csrf: csrfOf(request, reply) } : {};
    if (error instanceof ApiError) return sendPage(reply, error.status, errorPage(shown, "Refused", error.message));
    const fastify = error as FastifyError;
    if (fastify.code === "FST_CSRF_INVALID_TOKEN" || fastify.code === "FST_CSRF_MISSING_SECRET") {
      return sendPage(reply, 403, errorPage(shown, "Refused", "the form's security token is missing or not this session's (reload the page and try again)"));
    }
    if (fastify.code === "FST_ERR_CTP_BODY_TOO_LARGE") return sendPage(reply, 413, errorPage(shown, "Refused", "the form is larger than this service accepts"));
    if (error instanceof TokenFileError) return sendPage(reply, 500, errorPage(shown, "Service error", `the reviewer tokens file cannot be used (${error.problem}); the operator must fix it`));
    if (fastify.statusCode !== undefined && fastify.statusCode < 500) return sendPage(reply, fastify.statusCode, errorPage(shown, "Refused", fastify.message));
    process.stderr.write(`clauz3 approval service: ${error.stack ?? error.message}\n`);
    return sendPage(reply, 500, errorPage(shown, "Service error", "the service failed to answer this request; its log says why"));
  });
  app.setNotFoundHandler((request, reply) => sendPage(reply, 404, errorPage({}, "Not found", `there is no page ${request.url.split("?")[0]}`)));

  /** The signed-in reviewer, or a redirect to the sign-in page (undefined then). */
  const signedIn = (request: FastifyRequest, reply: FastifyReply): string | undefined => {
    const reviewer = reviewerOf(request);
    if (reviewer === undefined) void reply.code(303).header("location", "/review/login").header("cache-control", "no-store").send();
    return reviewer;
  };

  app.get("/page.css", async (_request, reply) => reply.header("cache-control", "no-cache").header("x-content-type-options", "nosniff").type("text/css; charset=utf-8").send(STYLESHEET + COVERAGE_STYLESHEET));

  app.get("/login", async (request, reply) => sendPage(reply, 200, loginPage(csrfOf(request, reply))));

  app.post("/login", { preHandler: guardPost, bodyLimit: FORM_BODY_LIMIT }, async (request, reply) => {
    const digest = tokenDigest((field(request.body, "token") ?? "").trim());
    const reviewer = digest && reviewerOfDigest(tokensFile, digest);
    if (!digest || reviewer === undefined) return sendPage(reply, 401, loginPage(csrfOf(request, reply), "That token is not one this service issued, or it was revoked."));
    sessions.close(request.cookies[SESSION_COOKIE]);
    const id = sessions.open(digest);
    return reply.code(303).setCookie(SESSION_COOKIE, id, { path: "/review", httpOnly: true, sameSite: "strict" }).header("location", "/review").send();
  });

  app.post("/logout", { preHandler: guardPost, bodyLimit: FORM_BODY_LIMIT }, async (request, reply) => {
    sessions.close(request.cookies[SESSION_COOKIE]);
    return reply.code(303).clearCookie(SESSION_COOKIE, { path: "/review" }).header("location", "/review/login").send();
  });

  app.get("/", async (request, reply) => {
    const reviewer = signedIn(request, reply);
    if (reviewer === undefined) return reply;
    const pending = await store.pending();
    const stored = (await Promise.all(pending.map((p) => store.get(p.id)))).filter((s) => s !== undefined);
    return sendPage(reply, 200, queuePage(context(request, reply, reviewer), stored));
  });

  const captured = (request: Parameters<typeof capturedSource>[1], g: Parameters<typeof capturedSource>[2]): ReturnType<typeof capturedSource> => capturedSource(layer.dir, request, g);

  app.get<{ Params: { id: string } }>("/requests/:id", async (request, reply) => {
    const reviewer = signedIn(request, reply);
    if (reviewer === undefined) return reply;
    const stored = await store.get(request.params.id);
    if (!stored) throw new ApiError(404, "unknown-request", `there is no request ${request.params.id}`);
    return sendPage(reply, 200, requestPage(await requestContext(request, reply, reviewer, stored), stored, captured));
  });

  app.post<{ Params: { id: string } }>("/requests/:id/decision", { preHandler: guardPost, bodyLimit: FORM_BODY_LIMIT }, async (request, reply) => {
    const reviewer = signedIn(request, reply);
    if (reviewer === undefined) return reply;
    const decision = field(request.body, "decision");
    const feedback = field(request.body, "feedback");
    const id = request.params.id;
    const refuse = async (error: ApiError): Promise<FastifyReply> => {
      const stored = await store.get(id);
      if (!stored) throw error;
      return sendPage(reply, error.status, requestPage(await requestContext(request, reply, reviewer, stored), stored, captured, error.message));
    };
    if (decision === undefined || !DECISIONS.has(decision)) return refuse(new ApiError(400, "invalid-body", "choose a decision with one of the buttons"));
    if (feedback !== undefined && feedback.length > 20_000) return refuse(new ApiError(400, "invalid-body", "the feedback is longer than 20,000 characters"));
    try {
      await options.decide(reviewer, id, decision as Decision, feedback?.trim() === "" ? undefined : feedback);
    } catch (error) {
      if (error instanceof ApiError) return refuse(error);
      throw error;
    }
    return reply.code(303).header("location", `/review/requests/${encodeURIComponent(id)}`).send();
  });

  if (options.memory) await app.register(memoryRoutes, { store, memory: options.memory, signedIn, guardPost, context, sendPage, formBodyLimit: FORM_BODY_LIMIT });
}
