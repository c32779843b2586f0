/**
 * The approval service's HTTP API (Fastify; docs/approval.md has the table). Bodies are validated
 * against JSON schemas with clauz3's own ajv (the approval request against
 * schema/approval-request.schema.json, nothing coerced, removed or defaulted) and size-limited;
 * every error is one JSON object `{error, field?, message}`, never a stack trace. Submitting and
 * reading a request's status need no credentials (that is what an agent does); the queue, a
 * request's full contents and every decision need a reviewer's bearer token (tokens.ts). The
 * reviewers' page (page/) is registered under `/review` and decides through the same function.
 */
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from "fastify";
import type { ErrorObject } from "ajv";
import { ReceiptError } from "../core/approval/receipt";
import { ApprovalRequestError, type ApprovalRequest } from "../core/approval/types";
import { approvalRequestSchema, schemaError, validateRequest } from "../core/approval/validate";
import { createAjv } from "../core/manifest";
import type { BudgetOptions } from "../core/prover/limits";
import { ApiError } from "./api-error";
import { decideRequest } from "./decide";
import type { Keyring } from "./keys";
import type { OperatorLayer } from "./layer";
import { memoryApi } from "./memory/api";
import { autoApprove, recordSnapshotOf, reviewerDecisionWrites } from "./memory/remember";
import { MemoryStore } from "./memory/store";
import { reviewPage } from "./page/routes";
import { applyPolicy, evaluateSubmission } from "./policy";
import { policyDecisionOf } from "./store/policy";
import type { ResolvedPolicy } from "../core/policy";
import { redeemReceipt, RedemptionError } from "./redeem";
import { StoreError, type ApprovalStore, type Decision, type StoredRequest } from "./store/store";
import { authenticateReviewer, TokenFileError } from "./tokens";
import { verifySubmission } from "./verify";

export interface ServiceConfig {
  readonly store: ApprovalStore;
  readonly keyring: Keyring;
  readonly layer: OperatorLayer;
  /** The reviewer tokens file (tokens.ts). */
  readonly tokensFile: string;
  /** Largest request body in bytes (default 2 MiB). */
  readonly bodyLimit?: number;
  /** Lifetime of an approval's receipt in seconds (default 600). */
  readonly receiptTtlSeconds?: number;
  /** The prover's budget for verification (default: the prover's defaults). */
  readonly solver?: BudgetOptions;
  /** The operator's approval policy, bound to the layer (service/policy.ts); none: a person decides every request. */
  readonly policy?: ResolvedPolicy;
}

export const DEFAULT_BODY_LIMIT = 2 * 1024 * 1024;
export const DEFAULT_RECEIPT_TTL_SECONDS = 600;

/** What "approve and remember" does (docs/approval-memory.md). */
export const REMEMBER_NOTE =
  "approve and remember approves this request with a single-use receipt and stores a rule (listed under Remembered rules) that approves later requests with exactly the same guarantees and no other library; a request a rule approved names it as its reviewer (rule:<id>)";

const DECISIONS: readonly Decision[] = ["approved_once", "approved_remember", "changes_requested", "rejected"];

const DECISION_SCHEMA = {
  type: "object",
  required: ["decision"],
  additionalProperties: false,
  properties: { decision: { enum: DECISIONS }, feedback: { type: "string", maxLength: 20_000 } },
} as const;

const REDEEM_SCHEMA = {
  type: "object",
  required: ["receipt"],
  additionalProperties: false,
  properties: { receipt: { type: "string", minLength: 1, maxLength: 20_000 } },
} as const;

function send(reply: FastifyReply, status: number, code: string, message: string, field?: string): FastifyReply {
  return reply.code(status).type("application/json; charset=utf-8").send({ error: code, ...(field !== undefined ? { field } : {}), message });
}

/** A request's status as anyone holding its id (the agent) sees it. */
function statusOf(stored: StoredRequest): Record<string, unknown> {
  const { verification, decision, receipt } = stored;
  return {
    id: stored.id,
    status: stored.status,
    submittedAt: stored.submittedAt,
    verified: verification.verified,
    problems: verification.problems,
    decision: decision
      ? { decision: decision.decision, reviewer: decision.reviewer, feedback: decision.feedback, decidedAt: decision.decidedAt, ...(decision.decision === "approved_remember" ? { note: REMEMBER_NOTE } : {}) }
      : null,
    receipt: stored.status === "approved" && receipt ? { token: receipt.token, id: receipt.id, kid: receipt.kid, singleUse: receipt.singleUse, expiresAt: receipt.expiresAt, redeemedAt: receipt.redeemedAt } : null,
  };
}

/** Build the service (not listening yet). */
export function buildService(config: ServiceConfig): FastifyInstance {
  const { store, keyring, layer } = config;
  const ttlSeconds = config.receiptTtlSeconds ?? DEFAULT_RECEIPT_TTL_SECONDS;
  const requestSchema = approvalRequestSchema();
  const memory = { store, memory: new MemoryStore(store), layerDir: layer.dir };
  const app = Fastify({ bodyLimit: config.bodyLimit ?? DEFAULT_BODY_LIMIT, logger: false, onProtoPoisoning: "error", onConstructorPoisoning: "error" });

  // Bodies are JSON only: a text body is refused as such (415), not read as a string.
  app.removeContentTypeParser("text/plain");

  // clauz3's ajv (draft 2019-09, nothing coerced or removed); each body names its own fields.
  app.setValidatorCompiler(({ schema }) => {
    const validate = createAjv().compile(schema as object);
    const body = schema === requestSchema ? "an approval request" : schema === DECISION_SCHEMA ? "a decision" : "a redemption";
    return (data: unknown) => (validate(data) ? { value: data } : { error: schemaError((validate.errors ?? []) as ErrorObject[], body) });
  });

  app.setErrorHandler((error: FastifyError | Error, _request, reply) => {
    if (error instanceof ApiError) return send(reply, error.status, error.code, error.message, error.field);
    if (error instanceof ApprovalRequestError) return send(reply, 400, "invalid-body", error.message, error.field);
    const fastify = error as FastifyError;
    if (fastify.code === "FST_ERR_CTP_BODY_TOO_LARGE") return send(reply, 413, "body-too-large", `the body is larger than this service accepts (${config.bodyLimit ?? DEFAULT_BODY_LIMIT} bytes)`);
    if (fastify.code === "FST_ERR_CTP_INVALID_MEDIA_TYPE") return send(reply, 415, "unsupported-media-type", "send the body as application/json");
    if (fastify.code === "FST_ERR_CTP_EMPTY_JSON_BODY") return send(reply, 400, "invalid-body", "the body is empty; send a JSON object", "the request");
    if (fastify.statusCode === 400) return send(reply, 400, "invalid-body", `the body is not valid JSON: ${fastify.message}`, "the request");
    if (error instanceof TokenFileError) return send(reply, 500, "service-error", `the reviewer tokens file cannot be used (${error.problem}); the operator must fix it`);
    if (fastify.statusCode !== undefined && fastify.statusCode < 500) return send(reply, fastify.statusCode, "bad-request", fastify.message);
    process.stderr.write(`clauz3 approval service: ${error.stack ?? error.message}\n`);
    return send(reply, 500, "service-error", "the service failed to answer this request; its log says why");
  });
  app.setNotFoundHandler((request, reply) => send(reply, 404, "not-found", `there is no ${request.method} ${request.url.split("?")[0]}`));

  const reviewerOf = (request: FastifyRequest): string | undefined => authenticateReviewer(config.tokensFile, request.headers.authorization);
  const requireReviewer = (request: FastifyRequest, reply: FastifyReply): string => {
    const reviewer = reviewerOf(request);
    if (reviewer === undefined) {
      reply.header("www-authenticate", 'Bearer realm="clauz3-approvals"');
      throw new ApiError(401, "unauthenticated", request.headers.authorization === undefined ? "this needs a reviewer's token (Authorization: Bearer <token>), which the operator issues" : "the reviewer token is not one this service issued, or it was revoked");
    }
    return reviewer;
  };

  // Verifications run one at a time: each builds a TypeScript program and proves, which takes the process.
  let verifying: Promise<unknown> = Promise.resolve();
  const serially = <T>(work: () => Promise<T>): Promise<T> => {
    const next = verifying.then(work, work);
    verifying = next.catch(() => undefined);
    return next;
  };

  app.post<{ Body: ApprovalRequest }>("/requests", { schema: { body: requestSchema } }, async (request, reply) => {
    // The schema passed; the digests the request states must match its own contents.
    const submitted = validateRequest(request.body);
    const verification = await serially(() => verifySubmission(layer, submitted, config.solver));
    const { id, created } = await store.submit(submitted, new Date().toISOString(), verification);
    // The identity snapshot as verified now. Then the operator's policy (deny wins: an auto-rejection
    // stops a remembered rule too), and only for a request still pending, the first remembered rule
    // that matches. An unverified request can only go to a person.
    await recordSnapshotOf(memory, (await store.get(id))!, new Date().toISOString());
    const policy = config.policy;
    if (policy && created && verification.verified) {
      const outcome = await serially(() => evaluateSubmission(layer, policy, submitted, config.solver));
      await applyPolicy({ store, keyring, requestId: id, outcome, ttlSeconds });
    }
    await autoApprove({ ...memory, keyring, ttlSeconds }, id);
    const stored = (await store.get(id))!;
    return reply.code(created ? 201 : 200).send({ ...statusOf(stored), policy: await policyDecisionOf(store, id), created });
  });

  app.get<{ Querystring: Record<string, string | undefined> }>("/requests", async (request, reply) => {
    requireReviewer(request, reply);
    const status = request.query.status;
    if (status !== "pending") throw new ApiError(400, "invalid-query", status === undefined ? "status is missing (the queue is /requests?status=pending)" : `status must be "pending" (the queue), not ${JSON.stringify(status)}`, "status");
    return { requests: await store.pending() };
  });

  app.get<{ Params: { id: string } }>("/requests/:id", async (request, reply) => {
    const stored = await store.get(request.params.id);
    if (!stored) throw new ApiError(404, "unknown-request", `there is no request ${request.params.id}`, "id");
    // A reviewer also sees the request: as submitted (the submitter's claims) and as the service computed it.
    const reviewer = request.headers.authorization !== undefined ? requireReviewer(request, reply) : undefined;
    const status = { ...statusOf(stored), policy: await policyDecisionOf(store, stored.id) };
    return reviewer === undefined ? status : { ...status, verdict: stored.verification.verdict, computed: stored.verification.computed, submitted: stored.request };
  });

  /** A reviewer's decision, from the API or the page; resolves once it (and an approval's receipt) is committed. */
  const decide = async (reviewer: string, requestId: string, decision: Decision, feedback: string | undefined): Promise<void> => {
    if (decision === "changes_requested" && (feedback ?? "").trim() === "") throw new ApiError(400, "invalid-body", "feedback is missing: requesting changes says what to change", "feedback");
    try {
      const within = await reviewerDecisionWrites(memory, requestId, decision, reviewer, new Date().toISOString());
      await decideRequest({ store, keyring, requestId, decision, reviewer, feedback: feedback ?? null, ttlSeconds, within });
    } catch (error) {
      if (!(error instanceof StoreError)) throw error;
      if (error.reason === "unknown-request") throw new ApiError(404, "unknown-request", error.message, "id");
      if (error.reason === "unverified") throw new ApiError(409, "unverified", `${error.message}; reject it or request changes`);
      throw new ApiError(409, error.reason, error.message);
    }
  };

  app.post<{ Params: { id: string }; Body: { decision: Decision; feedback?: string } }>("/requests/:id/decision", { schema: { body: DECISION_SCHEMA } }, async (request, reply) => {
    const reviewer = requireReviewer(request, reply);
    // What is answered is on disk: decide resolves after the commit.
    await decide(reviewer, request.params.id, request.body.decision, request.body.feedback);
    return statusOf((await store.get(request.params.id))!);
  });

  app.post<{ Body: { receipt: string } }>("/receipts/redeem", { schema: { body: REDEEM_SCHEMA } }, async (request) => {
    try {
      const claims = await redeemReceipt({ store, keyring, token: request.body.receipt });
      return { redeemed: true, claims };
    } catch (error) {
      if (error instanceof RedemptionError) throw new ApiError(error.reason === "already-redeemed" ? 409 : 404, error.reason, error.message, "receipt");
      if (error instanceof ReceiptError) throw new ApiError(403, error.reason, error.message, "receipt");
      throw error;
    }
  });

  // The reviewers' page: its own context (form bodies, cookies, HTML errors), on the same decisions.
  void app.register(reviewPage, { prefix: "/review", store, layer, tokensFile: config.tokensFile, rememberNote: REMEMBER_NOTE, decide, memory: memory.memory });
  app.get("/", async (_request, reply) => reply.code(303).header("location", "/review").send());
  app.get("/favicon.ico", async (_request, reply) => reply.code(204).send());

  void app.register(memoryApi, { store, memory: memory.memory, requireReviewer });
  app.get("/keys", async () => keyring.publicKeySet());
  app.get("/layer", async () => ({ fingerprint: layer.fingerprint }));
  return app;
}
