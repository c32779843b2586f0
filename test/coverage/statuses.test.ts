/**
 * Coverage statuses against the hand-computed table of docs/coverage.md: each status on each
 * branch (a reachable use, an unreachable one, a use in a loop and in a helper, a tool that does
 * not make the library used), `noGuarantees(lib)`, and the required contract proved with the
 * program's guarantees (violated when the program breaks it).
 */
import { ensureBuilt } from "../../fixtures/projects/project.mjs";
import type { ProgramVerdict } from "../../core/prover/api";
import { coverageProject, EMAIL_POLICY, manifest, proveAll, TEXT_POLICY, type CoverageProject } from "./project";

vi.setConfig({ testTimeout: 0, hookTimeout: 0 });

/** name → [program body, expected coverage as `library:status` worst first, expected verdict] */
const TABLE: Record<string, [string, string[], ProgramVerdict["verdict"]]> = {
  covered: [`export const guarantees = [email.noForwards(), email.sendsAtMost(1)];
export function main(to: string): void {
  sendEmail(to, "hi", "");
}
`, ["email:covered"], "proved"],
  required_gap: [`export const guarantees = [email.sendsAtMost(1)];
export function main(to: string): void {
  sendEmail(to, "hi", "");
}
`, ["email:required-gap"], "proved"],
  required_gap_violated: [`export const guarantees = [email.sendsAtMost(0)];
export function main(to: string): void {
  forwardLatest(to);
}
`, ["email:required-gap"], "violated"],
  unreachable_use: [`export const guarantees = [text.printsAtMost(1)];
export function main(to: string): void {
  if (to.length < 0) sendEmail(to, "never", "");
  print(to);
}
`, ["text:recommended-gap"], "proved"],
  not_in_when_used: [`export const guarantees = [email.sendsAtMost(0)];
export function main(): void {
  listInbox();
}
`, [], "proved"],
  silent_gap: [`export const guarantees = [bank.noWires()];
export function main(message: string): void {
  print(message);
}
`, ["text:silent-gap"], "proved"],
  no_guarantees_for_library: [`export const guarantees = [bank.noWires(), noGuarantees(text)];
export function main(message: string): void {
  print(message);
}
`, ["text:recommended-gap"], "proved"],
  no_guarantees_by_tool: [`export const guarantees = [noGuarantees(log), text.noErrorLogs()];
export function main(message: string): void {
  log("info", message);
}
`, ["text:covered"], "proved"],
  plain_no_guarantees_is_silent: [`export const guarantees = [noGuarantees()];
export function main(message: string): void {
  print(message);
}
`, ["text:silent-gap"], "proved"],
  no_guarantees_leaves_required: [`export const guarantees = [noGuarantees(email)];
export function main(to: string): void {
  sendEmail(to, "hi", "");
}
`, ["email:required-gap"], "proved"],
  two_libraries: [`export const guarantees = [email.noForwards()];
export function main(to: string, message: string): void {
  sendEmail(to, "hi", "");
  log("info", message);
}
`, ["text:silent-gap", "email:recommended-gap"], "proved"],
  use_in_loop: [`export const guarantees = [text.noErrorLogs()];
export function main(tos: string[]): void {
  for (const to of tos) if (to !== "") sendEmail(to, "hi", "");
}
`, ["email:required-gap"], "proved"],
  use_in_helper_on_a_branch: [`export const guarantees = [email.noForwards(), email.sendsAtMost(1)];
function notify(to: string): void {
  if (to.endsWith("@corp.com")) sendEmail(to, "hi", "");
}
export function main(to: string): void {
  notify(to);
}
`, ["email:covered"], "proved"],
  // Adversarial: the use hides behind a tool result; the prover knows nothing of it, so the call is reachable.
  use_behind_tool_result: [`export const guarantees = [email.sendsAtMost(0)];
export function main(to: string): void {
  for (const m of listInbox()) if (m.from === "boss@corp.com") forwardLatest(to);
}
`, ["email:required-gap"], "violated"],
  // Its benign twin: a condition no tool result can make true.
  control_use_behind_tool_result: [`export const guarantees = [email.sendsAtMost(0)];
export function main(to: string): void {
  for (const m of listInbox()) if (m.from !== m.from) forwardLatest(to);
}
`, [], "proved"],
  helper_never_called_on_a_path: [`export const guarantees = [text.noErrorLogs()];
function notify(to: string): void {
  sendEmail(to, "hi", "");
}
export function main(to: string): void {
  if (to !== to) notify(to);
  print(to);
}
`, ["text:covered"], "proved"],
};

const REFUSED: Record<string, string> = {
  no_guarantees_of_a_local: `export const guarantees = [noGuarantees(main)];
export function main(message: string): void {
  print(message);
}
`,
  no_guarantees_two_arguments: `export const guarantees = [noGuarantees(text, email)];
export function main(message: string): void {
  print(message);
}
`,
};

let project: CoverageProject;
let verdicts: Map<string, ProgramVerdict>;

beforeAll(async () => {
  ensureBuilt();
  project = coverageProject({ email: manifest("Email", EMAIL_POLICY), text: manifest("Text", TEXT_POLICY) }, { ...Object.fromEntries(Object.entries(TABLE).map(([k, [body]]) => [k, body])), ...REFUSED });
  ({ verdicts } = await proveAll(project.dir));
});
afterAll(() => project?.remove());

describe("the hand-computed table", () => {
  for (const [name, [, expected, verdict]] of Object.entries(TABLE)) {
    it(`${name}: ${expected.join(", ") || "no used library"} (${verdict})`, () => {
      const v = verdicts.get(name)!;
      expect(v, name).toBeDefined();
      expect((v.coverage ?? []).map((c) => `${c.library}:${c.status}`)).toEqual(expected);
      expect(v.verdict, JSON.stringify(v.results.filter((r) => r.verdict !== "proved"), null, 1)).toBe(verdict);
    });
  }
});

describe("details", () => {
  it("lists the reachable uses and which policy contracts are stated", () => {
    const c = verdicts.get("two_libraries")!.coverage!;
    const email = c.find((x) => x.library === "email")!;
    expect(email.uses.map((u) => `${u.tool}@${u.location.line}`)).toEqual(["email.sendEmail@9"]);
    expect(email.required).toEqual([{ contract: "email.noForwards", stated: true }]);
    expect(email.recommended).toEqual([{ contract: "email.sendsAtMost", stated: false }]);
    expect(email.stated).toEqual(["email.noForwards"]);
    expect(email.title).toBe("Email");
  });

  it("an unreachable call is not a use, a reachable one is", () => {
    expect(verdicts.get("unreachable_use")!.coverage!.map((c) => c.library)).toEqual(["text"]);
    const loop = verdicts.get("use_in_loop")!.coverage!.find((c) => c.library === "email")!;
    expect(loop.uses).toHaveLength(1);
  });

  it("proves an unstated required contract with the program's guarantees, marked with its library", () => {
    const proved = verdicts.get("required_gap")!.results.find((r) => r.requiredBy === "email")!;
    expect(proved).toMatchObject({ kind: "guarantee", verdict: "proved", contract: "email.noForwards()" });
    const violated = verdicts.get("required_gap_violated")!.results.find((r) => r.requiredBy === "email")!;
    expect(violated).toMatchObject({ verdict: "violated", contract: "email.noForwards()" });
    expect(violated.message).toContain("Required by email's coverage policy");
    expect(violated.location.line).toBe(9);
    // A stated required contract is proved once, as the program's own guarantee.
    expect(verdicts.get("covered")!.results.filter((r) => r.contract === "email.noForwards()").map((r) => r.requiredBy)).toEqual([undefined]);
  });

  it("noGuarantees with anything but a trusted library, tool or contract is refused on the argument", () => {
    const v = verdicts.get("no_guarantees_of_a_local")!;
    expect(v.verdict).toBe("refused");
    const r = v.results.find((x) => x.verdict === "refused")!;
    expect(r.message).toContain("`main` is not a trusted library, tool or contract.");
    expect(r.location.line).toBe(7);
    expect(verdicts.get("no_guarantees_two_arguments")!.results.find((x) => x.verdict === "refused")!.message).toContain("Expected 0-1 arguments, but got 2"); // TypeScript refuses it first; the reader refuses it too (guarantees.ts)
  });

  it("noGuarantees(lib) marks the library, by namespace import or by one of its tools", () => {
    expect(verdicts.get("no_guarantees_for_library")!.coverage![0]!.noGuarantees).toBe(true);
    expect(verdicts.get("no_guarantees_by_tool")!.coverage![0]!.noGuarantees).toBe(true);
    expect(verdicts.get("plain_no_guarantees_is_silent")!.coverage![0]!.noGuarantees).toBe(false);
  });
});
