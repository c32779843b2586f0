/**
 * The approval memory's pages, registered inside the review page's plugin (routes.ts) so they share
 * its sessions, cookies, form parsing and error pages: `/review/history`, `/review/history/:id`,
 * `/review/remembered` and its revoke form, which passes the same Origin and CSRF checks as every
 * other post of the page.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { ApiError } from "../api-error";
import type { MemoryStore } from "../memory/store";
import type { ApprovalStore } from "../store/store";
import { historyPage, historyRecordPage } from "./history";
import type { Html } from "./html";
import { rememberedPage } from "./remembered";
import type { PageContext } from "./views";

/** What the review page lends these routes. */
export interface PageKit {
  readonly store: ApprovalStore;
  readonly memory: MemoryStore;
  readonly signedIn: (request: FastifyRequest, reply: FastifyReply) => string | undefined;
  readonly guardPost: (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void) => void;
  readonly context: (request: FastifyRequest, reply: FastifyReply, reviewer: string) => PageContext;
  readonly sendPage: (reply: FastifyReply, status: number, page: Html) => FastifyReply;
  readonly formBodyLimit: number;
}

export async function memoryRoutes(app: FastifyInstance, kit: PageKit): Promise<void> {
  const { store, memory, signedIn, context, sendPage } = kit;

  app.get("/history", async (request, reply) => {
    const reviewer = signedIn(request, reply);
    if (reviewer === undefined) return reply;
    return sendPage(reply, 200, historyPage(context(request, reply, reviewer), await memory.history()));
  });

  app.get<{ Params: { id: string } }>("/history/:id", async (request, reply) => {
    const reviewer = signedIn(request, reply);
    if (reviewer === undefined) return reply;
    const stored = await store.get(request.params.id);
    if (!stored) throw new ApiError(404, "unknown-request", `there is no request ${request.params.id}`);
    const firing = await memory.firingOf(stored.id);
    const record = { stored, snapshot: await memory.snapshot(stored.id), fired: firing ? await memory.rule(firing.ruleId) : undefined, made: await memory.ruleFromRequest(stored.id) };
    return sendPage(reply, 200, historyRecordPage(context(request, reply, reviewer), record));
  });

  const rulesPage = async (request: FastifyRequest, reply: FastifyReply, reviewer: string, status = 200, problem?: string): Promise<FastifyReply> =>
    sendPage(reply, status, rememberedPage(context(request, reply, reviewer), await memory.rules(), await memory.firingCounts(), problem));

  app.get("/remembered", async (request, reply) => {
    const reviewer = signedIn(request, reply);
    if (reviewer === undefined) return reply;
    return rulesPage(request, reply, reviewer);
  });

  app.post<{ Params: { id: string } }>("/remembered/:id/revoke", { preHandler: kit.guardPost, bodyLimit: kit.formBodyLimit }, async (request, reply) => {
    const reviewer = signedIn(request, reply);
    if (reviewer === undefined) return reply;
    const outcome = await memory.revoke(request.params.id, reviewer, new Date().toISOString());
    if (outcome === "unknown-rule") return rulesPage(request, reply, reviewer, 404, `there is no remembered rule ${request.params.id}`);
    if (outcome === "already-revoked") return rulesPage(request, reply, reviewer, 409, `rule ${request.params.id} was already revoked`);
    return reply.code(303).header("location", `/review/remembered#rule-${encodeURIComponent(request.params.id)}`).send();
  });
}
