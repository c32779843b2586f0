/**
 * The approval memory's HTTP API, for reviewers (bearer token, as the queue): the remembered rules,
 * revoking one, and a request's history record (its identity snapshot, the rule that approved it,
 * the rule it made). Errors go through the service's one error handler as `ApiError`s.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { ApiError } from "../api-error";
import type { ApprovalStore } from "../store/store";
import type { MemoryStore } from "./store";

export interface MemoryApiOptions {
  readonly store: ApprovalStore;
  readonly memory: MemoryStore;
  /** The authenticated reviewer, or a thrown 401 (the service's own check). */
  readonly requireReviewer: (request: FastifyRequest, reply: FastifyReply) => string;
}

export async function memoryApi(app: FastifyInstance, options: MemoryApiOptions): Promise<void> {
  const { store, memory, requireReviewer } = options;

  app.get("/remembered", async (request, reply) => {
    requireReviewer(request, reply);
    const firings = await memory.firingCounts();
    return { rules: (await memory.rules()).map((r) => ({ ...r, fired: firings.get(r.id)?.count ?? 0, lastFired: firings.get(r.id)?.last ?? null })) };
  });

  app.post<{ Params: { id: string } }>("/remembered/:id/revoke", async (request, reply) => {
    const reviewer = requireReviewer(request, reply);
    const outcome = await memory.revoke(request.params.id, reviewer, new Date().toISOString());
    if (outcome === "unknown-rule") throw new ApiError(404, "unknown-rule", `there is no remembered rule ${request.params.id}`, "id");
    if (outcome === "already-revoked") throw new ApiError(409, "already-revoked", `rule ${request.params.id} was already revoked`, "id");
    return { revoked: true, rule: await memory.rule(request.params.id) };
  });

  app.get<{ Params: { id: string } }>("/requests/:id/history", async (request, reply) => {
    requireReviewer(request, reply);
    const stored = await store.get(request.params.id);
    if (!stored) throw new ApiError(404, "unknown-request", `there is no request ${request.params.id}`, "id");
    const snapshot = await memory.snapshot(stored.id);
    const firing = await memory.firingOf(stored.id);
    return {
      id: stored.id,
      status: stored.status,
      decision: stored.decision,
      snapshot: snapshot ?? null,
      identity: snapshot ? "recorded" : "Resolved identity not recorded",
      firedRule: firing ? firing.ruleId : null,
      rememberedAs: (await memory.ruleFromRequest(stored.id))?.id ?? null,
    };
  });
}
