/**
 * Remembered rules and argument eligibility as functions (service/memory/rules.ts,
 * eligibility.ts), on requests built in memory: a rule matches its own guarantees under other
 * inputs and in another order, and nothing else — not a changed template, contract body or
 * argument, not a guarantee more or fewer, not a library outside its profile or another library
 * under the same directory name — and says why.
 */
import { layerFingerprint, type ApprovalRequest } from "../../core/approval";
import { ineligibleArguments } from "../../service/memory/eligibility";
import { libraryFingerprint, type LibraryProfile, type UsedLibrary } from "../../service/memory/profile";
import { explainMismatch, matchKey, ruleMatches, ruleOf } from "../../service/memory/rules";
import { HEAD, PLAN, requestFor } from "../approval/project";
import { stdlibFiles } from "../helpers/program";
import { bodyChanged, OLD_TEMPLATE, NEW_TEMPLATE, templateChanged } from "./helpers";

/** The profile of a request that loads only tools/filesystem (what the service computes from the program's loads). */
function profileOf(request: ApprovalRequest): LibraryProfile {
  const library = request.layer.libraries.find((l) => l.directory === "tools/filesystem")!;
  return { libraries: [{ ...library, fingerprint: libraryFingerprint(request, library) }] };
}

function program(guarantees: string): string {
  return `${HEAD}export const guarantees = [${guarantees}];
export function main(name: string): void {
  if (name === "a") readFile("/data/a.md");
}
`;
}

describe("remembered rules", () => {
  const plan = requestFor({ "plan.ts": PLAN }, ["a"]);
  const rule = ruleOf(plan, profileOf(plan));

  it("match the same guarantees under other inputs and in another order", () => {
    const other = requestFor({ "plan.ts": PLAN }, ["zzz"]);
    expect(ruleMatches(rule, other, profileOf(other))).toBe(true);
    const swapped = requestFor({ "plan.ts": program('fs.onlyReadsFiles([FilePath("/data/a.md")]), fs.neverReadUnder("/secrets")') });
    expect(matchKey(swapped.guarantees)).toBe(matchKey(plan.guarantees));
    expect(ruleMatches(rule, swapped, profileOf(swapped))).toBe(true);
    expect(explainMismatch(rule, swapped, profileOf(swapped))).toEqual([]);
  });

  it("do not match another argument, a guarantee more or a guarantee fewer", () => {
    const cases: [string, RegExp][] = [
      ['fs.neverReadUnder("/secret"), fs.onlyReadsFiles([FilePath("/data/a.md")])', /neverReadUnder\(prefix="\/secret"\): other arguments/],
      ['fs.neverReadUnder("/secrets"), fs.onlyReadsFiles([FilePath("/data/a.md")]), fs.neverWriteUnder("/")', /neverWriteUnder\(prefix="\/"\) is not among the remembered guarantees/],
      ['fs.neverReadUnder("/secrets")', /the remembered guarantee filesystem\.onlyReadsFiles\(.*\) is not stated/],
    ];
    for (const [guarantees, reason] of cases) {
      const other = requestFor({ "plan.ts": program(guarantees) });
      expect(ruleMatches(rule, other, profileOf(other))).toBe(false);
      expect(explainMismatch(rule, other, profileOf(other)).join("\n")).toMatch(reason);
    }
  });

  it("do not match a changed template or a changed contract body, and say which", () => {
    const files = { ...stdlibFiles(), "plan.ts": PLAN };
    const template = requestFor(templateChanged(files), ["a"]);
    expect(template.guarantees[0]!.template).toBe(NEW_TEMPLATE);
    expect(ruleMatches(rule, template, profileOf(template))).toBe(false);
    expect(explainMismatch(rule, template, profileOf(template))[0]).toMatch(/neverReadUnder.*: .*its template changed; its contract's source changed \(source digests differ\); another sentence/);
    const body = requestFor(bodyChanged(files), ["a"]);
    expect(body.guarantees[0]!.template).toBe(OLD_TEMPLATE);
    expect(ruleMatches(rule, body, profileOf(body))).toBe(false);
    const reasons = explainMismatch(rule, body, profileOf(body));
    expect(reasons.join("\n")).toMatch(/its contract's source changed/);
    expect(reasons.join("\n")).not.toMatch(/template changed/);
  });

  it("do not match a request that uses a library outside the profile, or another library under the same directory", () => {
    const extra = { directory: "vendor/filesystem", id: "filesystem", origin: "local" as const, revision: "sha256:00", fingerprint: "f".repeat(64) };
    const own = (profileOf(plan) as { readonly libraries: readonly UsedLibrary[] }).libraries;
    const withExtra: LibraryProfile = { libraries: [...own, extra] };
    expect(ruleMatches(rule, plan, withExtra)).toBe(false);
    expect(explainMismatch(rule, plan, withExtra)).toContain("library filesystem (vendor/filesystem) is not the remembered one: another directory, origin or other files");
    const impostor: LibraryProfile = { libraries: [{ ...own[0]!, fingerprint: "0".repeat(64) }] };
    expect(ruleMatches(rule, plan, impostor)).toBe(false);
    // No profile at all (a verification from before profiles, or loads it could not follow): no match.
    expect(ruleMatches(rule, plan, undefined)).toBe(false);
    expect(ruleMatches(rule, plan, { problem: "x" })).toBe(false);
  });

  it("fingerprint a library over its directory's pinned files", () => {
    const library = plan.layer.libraries[0]!;
    const files = plan.layer.files.map((f, i) => (i === 0 ? { ...f, sha256: "1".repeat(64) } : f));
    const changed: ApprovalRequest = { ...plan, layer: { ...plan.layer, files, fingerprint: layerFingerprint(files) } };
    expect(libraryFingerprint(changed, library)).not.toBe(libraryFingerprint(plan, library));
  });
});

describe("arguments not eligible for remembering", () => {
  const args = (guarantees: string): string[] => ineligibleArguments(requestFor({ "plan.ts": program(guarantees) })).map((a) => `${a.argument}:${a.reason}`);

  it("are secret-looking values, free text and invisible characters", () => {
    expect(args('fs.neverReadUnder("sk_live_0123456789abcdefABCDEFGH")')).toEqual(["prefix:secret-value"]);
    expect(args('fs.neverReadUnder("ghp_0123456789abcdefghijABCDEFGHIJ")')).toEqual(["prefix:secret-value"]);
    expect(args('fs.neverReadUnder("/keys/-----BEGIN RSA PRIVATE KEY-----")')).toEqual(["prefix:secret-value"]);
    expect(args('fs.neverReadUnder("/k/0123456789abcdef0123456789abcdef")')).toEqual(["prefix:secret-value"]);
    expect(args('fs.neverReadUnder("/k/Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z")')).toEqual(["prefix:secret-value"]);
    expect(args('fs.neverReadUnder("line one\\nline two")')).toEqual(["prefix:free-text"]);
    expect(args(`fs.neverReadUnder("/${"x y ".repeat(60)}")`)).toEqual(["prefix:free-text"]);
    expect(args('fs.neverReadUnder("/data/\\u202Egnp.md")')).toEqual(["prefix:invisible-characters"]);
    expect(args('fs.onlyReadsFiles([FilePath("/data/a.md"), FilePath("/x/\\u200B")])')).toEqual(["files[1]:invisible-characters"]);
  });

  it("are not ordinary paths and short strings", () => {
    expect(args('fs.neverReadUnder("/secrets"), fs.onlyReadsFiles([FilePath("/data/a.md"), FilePath("/data/2026-11-30/report-final.md")])')).toEqual([]);
    expect(args(`fs.neverReadUnder("/${"x".repeat(150)}")`)).toEqual([]);
  });
});
