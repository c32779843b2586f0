/**
 * Coverage in `clauz3 check` (the built CLI as a child process): a required gap is an error
 * (TS93040, exit 1), a silent gap a warning (TS93041, exit 0 unless --max-warnings), a
 * recommended gap is not a problem; a policy naming a tool or contract the library does not have,
 * or a required contract that takes arguments, is an error on its field in clauz3.json (TS93043),
 * never a crash, and a program using that library gets a required gap; a policy of the wrong shape
 * is a manifest error (TS93023). `clauz3 explain` documents the codes.
 */
import * as path from "node:path";
import { ensureBuilt } from "../../fixtures/projects/project.mjs";
import { clauz3 } from "../cli/helpers";
import { COVERAGE_CODES, COVERAGE_RULES } from "../../core/coverage/rules";
import { coverageProject, EMAIL_POLICY, manifest, proveAll, TEXT_POLICY, type CoverageProject } from "./project";

vi.setConfig({ testTimeout: 0, hookTimeout: 0 });

const REQUIRED_GAP = `export const guarantees = [email.sendsAtMost(1)];
export function main(to: string): void {
  sendEmail(to, "hi", "");
}
`;
const SILENT_GAP = `export const guarantees = [bank.noWires()];
export function main(message: string): void {
  print(message);
}
`;
const RECOMMENDED_GAP = `export const guarantees = [email.noForwards()];
export function main(to: string): void {
  sendEmail(to, "hi", "");
}
`;

const projects: CoverageProject[] = [];
beforeAll(() => ensureBuilt());
afterAll(() => projects.forEach((p) => p.remove()));

function make(manifests: Record<string, string>, plans: Record<string, string>): string {
  const p = coverageProject(manifests, plans);
  projects.push(p);
  return p.dir;
}

const POLICIES = { email: manifest("Email", EMAIL_POLICY), text: manifest("Text", TEXT_POLICY) };

describe("clauz3 check", () => {
  it("a required gap is an error on `guarantees` naming the missing contract and the use; exit 1", () => {
    const dir = make(POLICIES, { plan: REQUIRED_GAP });
    const r = clauz3(["check", "--no-pretty", "--no-cache"], dir);
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/^plans\/plan\.ts\(7,14\): error TS93040: The program uses Email \[email\] \(email\.sendEmail at plans\/plan\.ts:9:3\), whose coverage policy requires email\.noForwards\(\), which `guarantees` does not state\./m);
    // The JSON report (validated against schema/report.schema.json by the helper) carries the coverage and the required proof.
    const json = JSON.parse(clauz3(["check", "--json", "--no-cache"], dir).stdout) as { summary: { errors: number }; programs: { coverage?: { library: string; status: string; uses: { tool: string; location: { file: string; line: number } }[] }[]; results: { requiredBy?: string; contract?: string; verdict: string }[] }[] };
    expect(json.summary.errors).toBe(1);
    expect(json.programs[0]!.coverage).toEqual([expect.objectContaining({ library: "email", status: "required-gap", uses: [{ tool: "email.sendEmail", location: { file: "plans/plan.ts", line: 9, column: 3 } }] })]);
    expect(json.programs[0]!.results.filter((x) => x.requiredBy)).toEqual([expect.objectContaining({ requiredBy: "email", contract: "email.noForwards()", verdict: "proved" })]);
  });

  it("a silent gap is a warning (exit 0; --max-warnings 0 fails); a recommended gap is no problem", () => {
    const dir = make(POLICIES, { silent: SILENT_GAP, recommended: RECOMMENDED_GAP });
    const r = clauz3(["check", "--no-pretty", "--no-cache"], dir);
    expect(r.stdout).toMatch(/^plans\/silent\.ts\(7,14\): warning TS93041: The program uses Text \[text\] \(text\.print at plans\/silent\.ts:9:3\) but states none of its contracts\./m);
    expect(r.stdout).not.toMatch(/TS9304[02]/);
    expect(r.status).toBe(0);
    expect(clauz3(["check", "--no-pretty", "--no-cache", "--max-warnings", "0"], dir).status).toBe(1);
  });

  it("a policy naming what the library does not have is an error on the field; the user gets a required gap, never a crash", async () => {
    const bad = { whenUsed: ["sendEmail", "sendFax"], required: ["sendsAtMost", "noSpam"] };
    const dir = make({ email: manifest("Email", bad) }, { plan: RECOMMENDED_GAP });
    const r = clauz3(["check", "--no-pretty", "--no-cache"], dir);
    expect(r.status).toBe(1);
    const lines = r.stdout.split("\n").filter((l) => l.includes("TS93043"));
    expect(lines.map((l) => l.replace(/: error TS93043: .*/, ""))).toEqual([
      expect.stringMatching(/^tools\/email\/clauz3\.json\(\d+,\d+\)$/),
      expect.stringMatching(/^tools\/email\/clauz3\.json\(\d+,\d+\)$/),
      expect.stringMatching(/^tools\/email\/clauz3\.json\(\d+,\d+\)$/),
    ]);
    expect(r.stdout).toContain("clauz3.json: coverage.whenUsed[1]: `sendFax` is not a tool of email");
    expect(r.stdout).toContain("clauz3.json: coverage.required[0]: `email.sendsAtMost` needs argument(s) `n`");
    expect(r.stdout).toContain("clauz3.json: coverage.required[1]: `noSpam` is not a contract of email");
    expect(r.stdout).toMatch(/error TS93040: .*The library's policy cannot be applied: .*clauz3\.json: coverage\.required\[0\]/);
    expect(r.stderr).not.toMatch(/at .*\.js:\d+/); // no stack trace
    const { verdicts } = await proveAll(dir);
    expect(verdicts.get("plan")!.coverage!.map((c) => [c.library, c.status, c.problems.length])).toEqual([["email", "required-gap", 3]]);
  });

  it("a policy of the wrong shape is a manifest error (TS93023) on the field", () => {
    const dir = make({ text: manifest("Text", { required: "noErrorLogs" }) }, { plan: SILENT_GAP });
    const r = clauz3(["check", "--no-pretty", "--no-cache"], dir);
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/^tools\/text\/clauz3\.json\(\d+,\d+\): error TS93023: clauz3\.json is not a valid library manifest: manifest\.coverage\.required must be array/m);
  });
});

describe("clauz3 explain", () => {
  it("documents each coverage code, all in 93040–93049", () => {
    for (const rule of COVERAGE_RULES) {
      expect(rule.code).toBeGreaterThanOrEqual(93040);
      expect(rule.code).toBeLessThanOrEqual(93049);
      const r = clauz3(["explain", String(rule.code)], path.resolve(__dirname));
      expect(r.status).toBe(0);
      expect(r.stdout).toContain(`TS${rule.code} ${rule.id}`);
    }
    expect(new Set(Object.values(COVERAGE_CODES)).size).toBe(COVERAGE_RULES.length);
  });
});
