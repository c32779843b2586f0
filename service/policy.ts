/**
 * The operator's approval policy in the service (`--policy <file>`, docs/policies.md). Loaded once
 * at start-up and bound to the operator's layer: an invalid file, or a clause naming a contract the
 * layer does not have, stops the service before it listens. Each verified request is then evaluated
 * (core/policy: the program re-proved with each rule's clauses added, over the same in-memory
 * overlay the verification uses) and the outcome recorded with its rule and reason; an
 * auto-approval is decided as a reviewer's approval is (service/decide.ts: the same signed,
 * single-use receipt), by the reviewer `policy:<rule name>` (no reviewer id has a colon), an
 * auto-rejection likewise with the rule's reason as the feedback; "ask" leaves it pending for a person.
 */
import * as path from "node:path";
import { evaluatePolicy, proveWithClauses, readPolicyFile, resolvePolicy, type PolicyOutcome, type ResolvedPolicy } from "../core/policy";
import type { ApprovalRequest } from "../core/approval/types";
import { readLayer } from "../core/layer/read";
import type { BudgetOptions } from "../core/prover/limits";
import { decideRequest } from "./decide";
import type { Keyring } from "./keys";
import type { OperatorLayer } from "./layer";
import { overlayCompilerHost, overlayModuleHost, overlayOf } from "./overlay";
import { recordPolicyDecision } from "./store/policy";
import { StoreError, type ApprovalStore } from "./store/store";

/** The reviewer a policy's decisions are recorded under. */
export function policyReviewer(rule: string): string {
  return `policy:${rule}`;
}

/** Read `file` and bind it to the operator's layer; throws `PolicyError` naming the file and field. */
export function loadServicePolicy(layer: OperatorLayer, file: string, shown: string = file): ResolvedPolicy {
  const policy = readPolicyFile(layer.ts, path.resolve(file), shown);
  const host = layer.ts.createCompilerHost(layer.compilerOptions, true);
  host.getCurrentDirectory = () => layer.dir;
  const program = layer.ts.createProgram({ rootNames: [...layer.rootNames], options: layer.compilerOptions, host });
  return resolvePolicy(layer.ts, program.getTypeChecker(), readLayer(layer.ts, program, layer.options).model, policy);
}

/** What `policy` decides for a submitted (and verified) request, proved against the operator's layer. */
export async function evaluateSubmission(layer: OperatorLayer, policy: ResolvedPolicy, submitted: ApprovalRequest, solver: BudgetOptions = {}): Promise<PolicyOutcome> {
  const { ts } = layer;
  const files = overlayOf(submitted, layer);
  const host = overlayCompilerHost(layer, files);
  const moduleHost = overlayModuleHost(layer, files);
  const programFile = path.join(layer.dir, ...submitted.program.path.split("/"));
  // The program with every file of the layer, so the clauses see the whole layer (core/policy/prove.ts).
  const program = ts.createProgram({ rootNames: [programFile, ...layer.rootNames.filter((f) => path.resolve(f) !== programFile)], options: layer.compilerOptions, host });
  const file = program.getSourceFile(programFile);
  if (!file) return evaluatePolicy(policy, async () => ({ status: "unknown", detail: "the program is not a source file TypeScript reads under the operator's options" }));
  const layerResult = readLayer(ts, program, layer.options);
  return evaluatePolicy(policy, (calls) => proveWithClauses({ ts, program, file, layer: layerResult, host, moduleHost, options: layer.options, solver }, calls));
}

export interface ApplyPolicy {
  readonly store: ApprovalStore;
  readonly keyring: Keyring;
  readonly requestId: string;
  readonly outcome: PolicyOutcome;
  readonly ttlSeconds: number;
}

/**
 * Record the outcome, then decide as it says. A person who decided the request in the meantime
 * keeps their decision (the policy's is then only recorded).
 */
export async function applyPolicy(input: ApplyPolicy): Promise<void> {
  const { outcome } = input;
  await recordPolicyDecision(input.store, input.requestId, outcome, new Date().toISOString());
  if (outcome.outcome === "ask" || outcome.rule === null) return;
  try {
    await decideRequest({
      store: input.store,
      keyring: input.keyring,
      requestId: input.requestId,
      decision: outcome.outcome === "auto_approved" ? "approved_once" : "rejected",
      reviewer: policyReviewer(outcome.rule),
      feedback: outcome.reason,
      ttlSeconds: input.ttlSeconds,
    });
  } catch (error) {
    if (error instanceof StoreError && error.reason === "already-decided") return;
    throw error;
  }
}
