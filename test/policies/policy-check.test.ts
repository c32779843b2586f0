/**
 * `clauz3 policy-check` through the real CLI: the outcome of each program under a policy (proved
 * against the real prover), `--expect` (exit 1 on a mismatch), `--json`, an unknown that fires a
 * rejection and never an approval, and exit 2 with the file and field named for a bad policy, a
 * clause the layer cannot bind, a bad option or a program that is not there.
 */
import { clauz3, ensureBuilt, removeProject } from "../cli/helpers";
import { POLICY, policyProject } from "./helpers";

let dir: string;

beforeAll(() => {
  ensureBuilt();
  dir = policyProject({
    "policy.json": POLICY,
    "deny-unknown.json": { version: 1, rules: [{ name: "audited", decision: "auto_rejected", reason: "Alarms must be ruled out.", unlessProven: ["audit.noAlarms()"] }] },
    "approve-unknown.json": { version: 1, rules: [{ name: "audited", decision: "auto_approved", reason: "No alarms.", whenProven: ["audit.noAlarms()"] }] },
    "other-library.json": { version: 1, rules: [{ name: "quiet", decision: "auto_approved", reason: "Nobody is notified.", whenProven: ["notify.nobodyNotified()"] }] },
    "bad-pairing.json": { version: 1, rules: [{ name: "x", decision: "auto_approved", reason: "r", unlessProven: ["filesystem.readOnly()"] }] },
    "unknown-contract.json": { version: 1, rules: [POLICY.rules[1], { name: "y", decision: "auto_approved", reason: "r", whenProven: ["filesystem.readOnly()", "filesystem.neverReads()"] }] },
    "wrong-type.json": { version: 1, rules: [{ name: "z", decision: "auto_rejected", reason: "r", unlessProven: ['filesystem.writesAtMost("0")'] }] },
    "wrong-count.json": { version: 1, rules: [{ name: "z", decision: "auto_rejected", reason: "r", unlessProven: ["filesystem.readOnly(1)"] }] },
    "missing-argument.json": { version: 1, rules: [{ name: "z", decision: "auto_rejected", reason: "r", unlessProven: ["filesystem.neverReadUnder()"] }] },
  });
});
afterAll(() => removeProject(dir));

/** Exit 2, one message naming the policy file and the field, no stack trace. */
function policyError(args: string[], message: RegExp): void {
  const r = clauz3(["policy-check", ...args], dir);
  expect(r.status).toBe(2);
  expect(r.stdout).toBe("");
  expect(r.stderr).toMatch(message);
  expect(r.stderr).not.toMatch(/\n\s+at /);
}

describe("clauz3 policy-check", () => {
  it("auto-approves a program whose whenProven list is proved, and none of whose rejections fires", () => {
    const r = clauz3(["policy-check", "plan.ts", "--policy", "policy.json", "--expect", "auto_approved"], dir);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^plan\.ts: auto_approved by rule "only-a": It reads only a\.md and writes nothing\.\n/);
    expect(r.stdout).toMatch(/· "no-etc" \(auto_rejected\): entailed\n/);
    expect(r.stdout).toMatch(/→ "only-a" \(auto_approved\): entailed, fired\n/);
  });

  it("auto-rejects a program that proves on its own but not the rejection's unlessProven list (JSON)", () => {
    const r = clauz3(["policy-check", "etc.ts", "--policy", "policy.json", "--json", "--expect", "auto_rejected"], dir);
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(out).toMatchObject({ program: "etc.ts", policy: "policy.json", outcome: "auto_rejected", rule: "no-etc", reason: "Nothing under /etc is read.", expected: "auto_rejected", matches: true });
    expect(out.policySha256).toMatch(/^[0-9a-f]{64}$/);
    // Deny first: the approval was never evaluated.
    expect(out.evaluations).toEqual([{ rule: "no-etc", decision: "auto_rejected", status: "not_entailed", fired: true, detail: expect.stringMatching(/^`filesystem\.neverReadUnder\(prefix="\/etc"\)` is violated: /) }]);
  });

  it("asks a person when no rule fires; --expect of another outcome exits 1", () => {
    const r = clauz3(["policy-check", "wide.ts", "--policy", "policy.json", "--expect", "auto_approved"], dir);
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/^wide\.ts: ask \(no rule fired: a person decides\)\n/);
    expect(r.stdout).toMatch(/· "only-a" \(auto_approved\): not entailed: `filesystem\.onlyReadsFiles\(files=\[FilePath\("\/data\/a\.md"\)\]\)` is violated/);
    expect(r.stderr).toBe("clauz3 policy-check: expected auto_approved, but the policy's outcome is ask\n");
  });

  it("an unknown fires a rejection and never an approval", () => {
    const denied = clauz3(["policy-check", "plan.ts", "--policy", "deny-unknown.json", "--json"], dir);
    expect(denied.status).toBe(0);
    expect(JSON.parse(denied.stdout)).toMatchObject({ outcome: "auto_rejected", rule: "audited", evaluations: [{ status: "unknown", fired: true, detail: expect.stringMatching(/^`audit\.noAlarms\(\)` could not be proved: refused: .*no tool of this program's layer performs them/) }] });
    const asked = clauz3(["policy-check", "plan.ts", "--policy", "approve-unknown.json", "--json", "--expect", "ask"], dir);
    expect(asked.status).toBe(0);
    expect(JSON.parse(asked.stdout)).toMatchObject({ outcome: "ask", rule: null, evaluations: [{ rule: "audited", status: "unknown", fired: false }] });
  });

  it("a clause about a library of the layer the program does not use holds (it is proved against the whole layer)", () => {
    const r = clauz3(["policy-check", "plan.ts", "--policy", "other-library.json", "--expect", "auto_approved"], dir);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^plan\.ts: auto_approved by rule "quiet": Nobody is notified\.\n/);
  });

  it("a bad policy exits 2 naming the file and the field", () => {
    policyError(["plan.ts", "--policy", "bad-pairing.json"], /^clauz3 policy-check: bad-pairing\.json: rules\[0\]\.unlessProven is not allowed in an auto_approved rule/);
    policyError(["plan.ts", "--policy", "none.json"], /^clauz3 policy-check: none\.json: the file does not exist/);
    policyError(["plan.ts", "--policy", "unknown-contract.json"], /^clauz3 policy-check: unknown-contract\.json: rules\[1\]\.whenProven\[1\] "filesystem\.neverReads\(\)" names `filesystem\.neverReads`, which is not a contract of the layer \(the layer has filesystem\./);
    policyError(["plan.ts", "--policy", "wrong-type.json"], /wrong-type\.json: rules\[0\]\.unlessProven\[0\] "filesystem\.writesAtMost\(\\"0\\"\)" gives a string \("0"\) for `n`, which `filesystem\.writesAtMost` declares `number`/);
    policyError(["plan.ts", "--policy", "wrong-count.json"], /wrong-count\.json: rules\[0\]\.unlessProven\[0\] .* gives 1 arguments; `filesystem\.readOnly` takes 0/);
    policyError(["plan.ts", "--policy", "missing-argument.json"], /missing-argument\.json: rules\[0\]\.unlessProven\[0\] .* leaves out `prefix` \(string\), which `filesystem\.neverReadUnder` needs/);
  });

  it("a bad option or program exits 2", () => {
    policyError(["plan.ts"], /--policy <file> is required/);
    policyError(["plan.ts", "--policy", "policy.json", "--expect", "approved"], /--expect must be one of auto_approved, auto_rejected, ask, not "approved"/);
    policyError(["gone.ts", "--policy", "policy.json"], /gone\.ts does not exist/);
    policyError(["tools/filesystem/trusted/effects.ts", "--policy", "policy.json"], /belongs to the trusted layer/);
  });
});
