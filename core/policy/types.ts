/**
 * Approval policies (docs/policies.md): an operator's JSON file of rules that decide a request
 * before a person does. The types of a policy as read (load.ts), as resolved against a layer
 * (resolve.ts) and as evaluated (evaluate.ts), and the one error every bad policy is reported as.
 */
import type { LiteralValue } from "../guarantees";

/** What a rule decides when it fires. */
export type RuleDecision = "auto_approved" | "auto_rejected";

/** What a policy decides for a request: a rule's decision, or a person's ("ask"). */
export type PolicyOutcomeKind = RuleDecision | "ask";

/** The clause list of each decision: an approval needs its clauses proved, a rejection fires unless they are. */
export const CLAUSES_OF: Readonly<Record<RuleDecision, "whenProven" | "unlessProven">> = { auto_approved: "whenProven", auto_rejected: "unlessProven" };

/** One rule as the file states it. */
export interface PolicyRule {
  readonly name: string;
  readonly decision: RuleDecision;
  readonly reason: string;
  /** The contract calls of `whenProven` (approvals) or `unlessProven` (rejections), as written. */
  readonly clauses: readonly string[];
  /** Index in the file's `rules`. */
  readonly index: number;
}

export interface Policy {
  /** The file as named by whoever loaded it (what errors show). */
  readonly file: string;
  readonly rules: readonly PolicyRule[];
  /** SHA-256 of the file's bytes (recorded with every decision the policy makes). */
  readonly sha256: string;
}

/** A clause bound to a contract of the layer: every parameter's value, defaults expanded. */
export interface ResolvedCall {
  /** The clause as written. */
  readonly text: string;
  /** `email.atMostEmailsTo(recipient="ceo@example.com", n=0)`: as `describe` shows a qualified call. */
  readonly call: string;
  readonly qualifiedName: string;
  /** The contract's export name and its file (absolute). */
  readonly contractName: string;
  readonly contractFile: string;
  /** One value per contract parameter, in order. */
  readonly args: readonly LiteralValue[];
}

export interface ResolvedRule extends PolicyRule {
  readonly calls: readonly ResolvedCall[];
}

export interface ResolvedPolicy {
  readonly file: string;
  readonly sha256: string;
  readonly rules: readonly ResolvedRule[];
}

/**
 * A policy that cannot be used: the file, the field (`rules[1].unlessProven[0]`, or `the file`)
 * and what is wrong with it. Thrown wherever it is found; each surface prints `message` (exit 2).
 */
export class PolicyError extends Error {
  constructor(
    readonly file: string,
    readonly field: string,
    readonly problem: string,
  ) {
    super(`${file}: ${field} ${problem}`);
    this.name = "PolicyError";
  }
}

/** Whether a clause list was proved together with the program's own guarantees and preconditions. */
export type EntailmentStatus = "entailed" | "not_entailed" | "unknown";

export interface Entailment {
  readonly status: EntailmentStatus;
  /** Why it is not entailed, or why it could not be decided (null when entailed). */
  readonly detail: string | null;
}

export interface RuleEvaluation {
  readonly rule: string;
  readonly decision: RuleDecision;
  readonly status: EntailmentStatus;
  readonly fired: boolean;
  readonly detail: string | null;
}

export interface PolicyOutcome {
  readonly outcome: PolicyOutcomeKind;
  /** The rule that decided (null when none fired: a person decides). */
  readonly rule: string | null;
  readonly reason: string | null;
  /** The rules evaluated, in the order they were (rejections first, then approvals, each in file order). */
  readonly evaluations: readonly RuleEvaluation[];
  /** The policy file's SHA-256. */
  readonly policySha256: string;
}
