import ts from "typescript";
import { proveProgram } from "../../core/prover/prove";
import { createProgram, PROJECT, stdlibFiles } from "../helpers/program";

async function prove(plan: string) {
  const program = createProgram({ ...stdlibFiles(), "plan.ts": plan });
  const file = program.getSourceFile(`${PROJECT}/plan.ts`)!;
  return proveProgram({ ts, program, file });
}

const HEADER = `import { readFile, writeFile } from "./tools/filesystem/trusted/effects";
import * as fs from "./tools/filesystem/trusted/contracts";
`;

it("proves a guarded read", async () => {
  const v = await prove(HEADER + `export const guarantees = [fs.neverReadUnder("/secrets")];
export function main(path: string): void {
  if (path !== "" && !path.startsWith("/secrets")) readFile(path);
}
`);
  expect(v.verdict).toBe("proved");
});

it("finds a counterexample for an unguarded read", async () => {
  const v = await prove(HEADER + `export const guarantees = [fs.neverReadUnder("/secrets")];
export function main(path: string): void {
  readFile(path);
}
`);
  console.log(JSON.stringify(v.results, null, 1));
  expect(v.verdict).toBe("violated");
});

it("quantified loop", async () => {
  const v = await prove(HEADER + `export const guarantees = [fs.neverReadUnder("/secrets"), fs.writesAtMost(2)];
export function main(files: string[]): void {
  for (const f of files) if (f.length > 0 && !f.startsWith("/secrets")) readFile(f);
  writeFile("/tmp/a", "x");
}
`);
  console.log(JSON.stringify(v.results.map(r => [r.verdict, r.message]), null, 1));
  expect(v.verdict).toBe("proved");
});
