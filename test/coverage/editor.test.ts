/**
 * Coverage in the editor: a real tsserver process with the clauz3 language service over a project
 * whose manifests declare coverage policies. The same diagnostics as `check` (one engine,
 * core/coverage/diagnostics.ts through proofDiagnostics): a required gap is an error and a silent
 * gap a warning on `guarantees`, a recommended gap a suggestion, each pointing at the use.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { ensureBuilt, locate, ours, tsconfigText, Tsserver, type DiagnosticsView as View } from "../language-service/tsserver-client.mjs";
import { coverageProject, EMAIL_POLICY, IMPORTS, manifest, TEXT_POLICY, type CoverageProject } from "./project";

vi.setConfig({ testTimeout: 0, hookTimeout: 0 });

const PLAN = `export const guarantees = [bank.noWires()];
export function main(to: string, message: string): void {
  sendEmail(to, "hi", "");
  print(message);
}
`;
const BUDGET = { budgetMs: 240_000 };

let project: CoverageProject;
let server: Tsserver;

beforeAll(async () => {
  ensureBuilt();
  project = coverageProject({ email: manifest("Email", EMAIL_POLICY), text: manifest("Text", { ...TEXT_POLICY, recommended: [] }) }, { plan: PLAN });
  fs.writeFileSync(path.join(project.dir, "tsconfig.json"), tsconfigText({ include: ["tools", "plans"] }));
  server = new Tsserver(project.dir);
  await server.configure();
  await server.open("plans/plan.ts");
});
afterAll(async () => {
  await server?.close();
  project?.remove();
});

it("shows the required gap as an error and the silent gap as a warning on `guarantees`, with the use", async () => {
  const v: View = await server.pollDiagnostics("plans/plan.ts", (x: View) => ours(x.semantic).length >= 2, BUDGET);
  const text = IMPORTS + PLAN;
  const at = locate(text, "guarantees");
  const shown = ours(v.semantic).map((d) => ({ code: d.code, category: d.category, start: d.start, related: d.relatedInformation?.map((r) => r.span.start) }));
  expect(shown).toEqual([
    { code: 93040, category: "error", start: at, related: [locate(text, "sendEmail(to")] },
    { code: 93041, category: "warning", start: at, related: [locate(text, "print(message)")] },
  ]);
  expect(ours(v.semantic)[0]!.text).toContain("whose coverage policy requires email.noForwards()");
});
