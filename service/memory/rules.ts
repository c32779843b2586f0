/**
 * Remembered rules: what "Approve and remember" stores, and when it matches a later request.
 *
 * A rule holds its request's guarantees — each one's identity digest (core/approval/identity.ts:
 * library id, version and manifest digest, canonical symbol, qualified name, bound arguments,
 * template digest, renderer version, sentence and the SHA-256 of the contract's file and every
 * trusted file it imports), with the identity itself for display — and its library profile
 * (profile.ts). A later verified request matches when
 *
 * 1. its guarantees are exactly the same set: the same identity digests, none more, none fewer
 *    (the order in the program does not matter, as receipts still bind the order);
 * 2. every library it loads is in the rule's profile with the same fingerprint (directory, id,
 *    origin and the bytes of every file of the library).
 *
 * So a changed template, a changed contract body (or anything it imports), other arguments, or
 * another library under the same name never match; `explainMismatch` says which, so a request a
 * rule nearly matched shows why on the page instead of being passed over silently.
 */
import { digestOf } from "../../core/approval/canonical";
import { identityDigest } from "../../core/approval/identity";
import type { ApprovalRequest } from "../../core/approval/types";
import type { GuaranteeIdentity } from "../../core/describe";
import type { LibraryProfile, UsedLibrary } from "./profile";

export const RULE_FORMAT = "clauz3-remembered-rule/1";
export const MATCH_KEY_FORMAT = "clauz3-remembered-guarantees/1";

export interface RuleGuarantee {
  readonly identityDigest: string;
  readonly identity: GuaranteeIdentity;
}

export interface RememberedRule {
  readonly format: typeof RULE_FORMAT;
  /** Sorted by identity digest, each once. */
  readonly guarantees: readonly RuleGuarantee[];
  readonly libraries: readonly UsedLibrary[];
}

/** The lookup key of a set of guarantees: the digest of their sorted, distinct identity digests. */
export function matchKey(guarantees: readonly GuaranteeIdentity[]): string {
  return digestOf(MATCH_KEY_FORMAT, { guarantees: [...new Set(guarantees.map(identityDigest))].sort() });
}

/** The rule "Approve and remember" stores for a verified request with its library profile. */
export function ruleOf(request: ApprovalRequest, profile: LibraryProfile): RememberedRule {
  if (!("libraries" in profile)) throw new Error(`no library profile: ${profile.problem}`);
  const byDigest = new Map<string, GuaranteeIdentity>();
  for (const g of request.guarantees) byDigest.set(identityDigest(g), g);
  const guarantees = [...byDigest.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([d, identity]) => ({ identityDigest: d, identity }));
  return { format: RULE_FORMAT, guarantees, libraries: profile.libraries };
}

/** Why `rule` does not match `request` (empty: it matches). */
export function explainMismatch(rule: RememberedRule, request: ApprovalRequest, profile: LibraryProfile | undefined): string[] {
  const reasons: string[] = [];
  const remembered = new Map(rule.guarantees.map((g) => [g.identityDigest, g.identity]));
  const requested = new Map(request.guarantees.map((g) => [identityDigest(g), g]));
  for (const [digest, g] of requested) {
    if (remembered.has(digest)) continue;
    // The same call under another identity: say what changed.
    const twin = [...remembered.values()].find((r) => r.qualifiedName === g.qualifiedName && r.call === g.call) ?? [...remembered.values()].find((r) => r.qualifiedName === g.qualifiedName);
    if (!twin) {
      reasons.push(`${g.call} is not among the remembered guarantees`);
      continue;
    }
    const what: string[] = [];
    if (twin.symbol !== g.symbol) what.push(`another contract under the same name (${g.symbol}, remembered ${twin.symbol})`);
    if (twin.library.id !== g.library.id || twin.library.version !== g.library.version || twin.library.manifestSha256 !== g.library.manifestSha256) what.push("another library or manifest");
    if (twin.templateSha256 !== g.templateSha256) what.push("its template changed");
    if (twin.rendererVersion !== g.rendererVersion) what.push("another renderer version");
    if (JSON.stringify(twin.sources) !== JSON.stringify(g.sources)) what.push("its contract's source changed (source digests differ)");
    if (JSON.stringify(twin.parameters.map((p) => [p.name, p.type, p.value, p.defaulted])) !== JSON.stringify(g.parameters.map((p) => [p.name, p.type, p.value, p.defaulted]))) what.push("other arguments");
    if (twin.sentence !== g.sentence || twin.sentenceSource !== g.sentenceSource) what.push("another sentence");
    reasons.push(`${g.call}: ${what.length > 0 ? what.join("; ") : "another identity"}`);
  }
  for (const [digest, g] of remembered) if (!requested.has(digest) && ![...requested.values()].some((r) => r.qualifiedName === g.qualifiedName)) reasons.push(`the remembered guarantee ${g.call} is not stated`);
  if (!profile) {
    reasons.push("the request has no library profile");
  } else if (!("libraries" in profile)) {
    reasons.push(`the request's libraries are not known: ${profile.problem}`);
  } else {
    for (const l of profile.libraries) {
      const same = rule.libraries.find((r) => r.fingerprint === l.fingerprint);
      if (same) continue;
      const named = rule.libraries.find((r) => r.id === l.id || r.directory === l.directory);
      reasons.push(named ? `library ${l.id} (${l.directory}) is not the remembered one: another directory, origin or other files` : `it uses library ${l.id} (${l.directory}), which the remembered request did not`);
    }
  }
  return reasons;
}

/** Whether `rule` approves `request`: the same guarantees and no library outside its profile. */
export function ruleMatches(rule: RememberedRule, request: ApprovalRequest, profile: LibraryProfile | undefined): boolean {
  if (!profile || !("libraries" in profile)) return false;
  const remembered = rule.guarantees.map((g) => g.identityDigest);
  const requested = [...new Set(request.guarantees.map(identityDigest))].sort();
  if (remembered.length !== requested.length || remembered.some((d, i) => d !== requested[i])) return false;
  return profile.libraries.every((l) => rule.libraries.some((r) => r.fingerprint === l.fingerprint));
}
