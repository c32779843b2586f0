/**
 * Issue 8, hole 6 ("prove what will run"): the `main` proved is the binding the module exports as
 * `main`, the `guarantees` checked are the exported binding with a literal initializer, and each
 * guarantee argument has exactly the contract parameter's declared type. Each trick has a benign
 * twin that stays proved.
 */
import { check, GUARANTEES, HEAD, SAFE_MAIN, type Case } from "./helpers";

const LEAK = `readFile("/secrets/key");`;
const SAFE = `readFile("/data/report.md");`;

const main: Case[] = [
  {
    name: "export { run as main }: the exported function is proved, not the one named main",
    files: { "plan.ts": `${HEAD}${GUARANTEES}function main(): void {\n  ${SAFE}\n}\nfunction run(): void {\n  ${LEAK}\n}\nexport { run as main };\n` },
    expect: { verdict: "violated", line: 8 },
  },
  {
    name: "control: export { run as main } of a safe function",
    files: { "plan.ts": `${HEAD}${GUARANTEES}function run(): void {\n  ${SAFE}\n}\nexport { run as main };\n` },
    expect: { verdict: "proved" },
  },
  {
    name: "export { main } from another module",
    files: { "plan.ts": `${HEAD}${GUARANTEES}export { main } from "./other";\n`, "other.ts": `${HEAD}export function main(): void {\n  ${LEAK}\n}\n` },
    expect: { verdict: "refused", at: "plan.ts:4", match: /declared in another module \(other\.ts\)/ },
  },
  {
    name: "control: a helper re-exported beside the program's own main",
    files: { "plan.ts": `${HEAD}${GUARANTEES}${SAFE_MAIN}export { helper } from "./other";\n`, "other.ts": `export function helper(): string {\n  return "x";\n}\n` },
    expect: { verdict: "proved" },
  },
  {
    name: "export * supplies main while the local one is not exported",
    files: { "plan.ts": `${HEAD}${GUARANTEES}function main(): void {\n  ${SAFE}\n}\nexport * from "./other";\n`, "other.ts": `${HEAD}export function main(): void {\n  ${LEAK}\n}\n` },
    expect: { verdict: "refused", at: "plan.ts:7", match: /declared in another module/ },
  },
  {
    name: "a type-only export of the local main leaves export * to supply the value",
    files: { "plan.ts": `${HEAD}${GUARANTEES}function main(): void {\n  ${SAFE}\n}\nexport type { main };\nexport * from "./other";\n`, "other.ts": `${HEAD}export function main(): void {\n  ${LEAK}\n}\n` },
    expect: { verdict: "refused", at: "plan.ts:7", match: /exported only as a type/ },
  },
  {
    name: "control: the local main exported by an export clause",
    files: { "plan.ts": `${HEAD}${GUARANTEES}function main(): void {\n  ${SAFE}\n}\nexport { main };\n` },
    expect: { verdict: "proved" },
  },
  {
    name: "a default export is an entry point the proof does not cover",
    files: { "plan.ts": `${HEAD}${GUARANTEES}${SAFE_MAIN}export default function (): void {\n  ${LEAK}\n}\n` },
    expect: { verdict: "refused", at: "plan.ts:7", match: /default export|`export default`/ },
  },
  {
    name: "export { run as default }",
    files: { "plan.ts": `${HEAD}${GUARANTEES}${SAFE_MAIN}function run(): void {\n  ${LEAK}\n}\nexport { run as default };\n` },
    expect: { verdict: "refused", at: "plan.ts:10", match: /default/ },
  },
  {
    name: "a main that is declared but not exported",
    files: { "plan.ts": `${HEAD}${GUARANTEES}function main(): void {\n  ${SAFE}\n}\n` },
    expect: { verdict: "refused", at: "plan.ts:4", match: /not exported/ },
  },
  {
    name: "overloads of main",
    files: { "plan.ts": `${HEAD}${GUARANTEES}export function main(): void;\nexport function main(path: string): void;\nexport function main(path?: string): void {\n  if (path !== undefined) readFile(path);\n}\n` },
    expect: { verdict: "refused", at: "plan.ts:5", match: /3 declarations/ },
  },
  {
    name: "export let main can be reassigned",
    files: { "plan.ts": `${HEAD}${GUARANTEES}export let main = (): void => {\n  ${SAFE}\n};\n` },
    expect: { verdict: "refused", at: "plan.ts:4", match: /not a `const`/ },
  },
  {
    name: "control: export const main = () => ...",
    files: { "plan.ts": `${HEAD}${GUARANTEES}export const main = (): void => {\n  ${SAFE}\n};\n` },
    expect: { verdict: "proved" },
  },
  {
    name: "main as a const alias of another function",
    files: { "plan.ts": `${HEAD}${GUARANTEES}function run(): void {\n  ${LEAK}\n}\nexport const main = run;\n` },
    expect: { verdict: "refused", at: "plan.ts:7", match: /export \{ run as main \}/ },
  },
  {
    name: "main behind a type assertion",
    files: { "plan.ts": `${HEAD}${GUARANTEES}export const main = ((): void => {\n  ${LEAK}\n}) as () => void;\n` },
    expect: { verdict: "refused", at: "plan.ts:4", match: /the function itself/ },
  },
];

const guarantees: Case[] = [
  {
    name: "export let guarantees",
    files: { "plan.ts": `${HEAD}export let guarantees = [fs.neverReadUnder("/secrets")];\n${SAFE_MAIN}` },
    expect: { verdict: "refused", at: "plan.ts:3", match: /`guarantees` is not a `const`/ },
  },
  {
    name: "control: [...] as const",
    files: { "plan.ts": `${HEAD}export const guarantees = [fs.neverReadUnder("/secrets")] as const;\n${SAFE_MAIN}` },
    expect: { verdict: "proved" },
  },
  {
    name: "control: export { g as guarantees }",
    files: { "plan.ts": `${HEAD}const g = [fs.neverReadUnder("/secrets")];\nexport { g as guarantees };\n${SAFE_MAIN}` },
    expect: { verdict: "proved" },
  },
  {
    name: "guarantees declared but not exported",
    files: { "plan.ts": `${HEAD}const guarantees = [fs.neverReadUnder("/secrets")];\n${SAFE_MAIN}` },
    expect: { verdict: "refused", at: "plan.ts:3", match: /declared but not exported/ },
  },
  {
    name: "guarantees from another module",
    files: { "plan.ts": `${HEAD}export { guarantees } from "./other";\n${SAFE_MAIN}`, "other.ts": `${HEAD}export const guarantees = [fs.writesAtMost(1)];\n` },
    expect: { verdict: "refused", at: "plan.ts:3", match: /declared in another module/ },
  },
  {
    name: "a second export under the name guarantees",
    files: { "plan.ts": `${HEAD}${GUARANTEES}const other = [fs.writesAtMost(1)];\nexport { other as guarantees };\n${SAFE_MAIN}` },
    expect: { verdict: "refused", at: "plan.ts:3", match: /TS2323|TS2300|TS2484|Duplicate|Cannot redeclare/ },
  },
  {
    name: "main empties the guarantees the runner checks",
    files: { "plan.ts": `${HEAD}${GUARANTEES}export function main(): void {\n  guarantees.length = 0;\n  ${LEAK}\n}\n` },
    expect: { verdict: "refused", at: "plan.ts:5", match: /`guarantees` is read by the runner/ },
  },
  {
    name: "a helper changes the guarantees through an alias",
    files: { "plan.ts": `${HEAD}const g = [fs.neverReadUnder("/secrets")];\nexport { g as guarantees };\nfunction clear(): void {\n  g.pop();\n}\n${SAFE_MAIN}` },
    expect: { verdict: "refused", at: "plan.ts:6", match: /`guarantees` is read by the runner/ },
  },
  {
    name: "a comma expression runs a tool when the guarantees are created",
    files: { "plan.ts": `${HEAD}export const guarantees = [(readFile("/secrets/key"), fs.neverReadUnder("/secrets"))];\n${SAFE_MAIN}` },
    expect: { verdict: "refused", at: "plan.ts:3", match: /Each guarantee must be a call/ },
  },
  {
    name: "a comma expression in the callee (its type still names the contract)",
    files: { "plan.ts": `${HEAD}export const guarantees = [(readFile("/secrets/key"), fs).neverReadUnder("/secrets")];\n${SAFE_MAIN}` },
    expect: { verdict: "refused", at: "plan.ts:3", match: /named directly/ },
  },
  {
    name: "a spread",
    files: { "plan.ts": `${HEAD}export const guarantees = [...[fs.neverReadUnder("/secrets")]];\n${SAFE_MAIN}` },
    expect: { verdict: "refused", at: "plan.ts:3", match: /spread/i },
  },
  {
    name: "a conditional entry",
    files: { "plan.ts": `${HEAD}const strict = true;\nexport const guarantees = [strict ? fs.neverReadUnder("/secrets") : fs.writesAtMost(100)];\n${SAFE_MAIN}` },
    expect: { verdict: "refused", at: "plan.ts:4", match: /Each guarantee must be a call/ },
  },
  {
    name: "the array behind `as any`",
    files: { "plan.ts": `${HEAD}export const guarantees = [fs.neverReadUnder("/secrets")] as any;\n${SAFE_MAIN}` },
    expect: { verdict: "refused", at: "plan.ts:3", match: /array literal of contract calls/ },
  },
  {
    name: "a tool call as an entry",
    files: { "plan.ts": `${HEAD}export const guarantees = [fs.neverReadUnder("/secrets"), readFile("/secrets/key")];\n${SAFE_MAIN}` },
    expect: { verdict: "refused", at: "plan.ts:3", match: /not a contract of the trusted layer/ },
  },
  {
    name: "FilePath reached through a comma expression",
    files: { "plan.ts": `import * as c3 from "clauz3";\n${HEAD}export const guarantees = [fs.onlyReadsFiles([(readFile("/secrets/key"), c3).FilePath("/data/report.md")])];\n${SAFE_MAIN}` },
    expect: { verdict: "refused", at: "plan.ts:4", match: /must be literals/ },
  },
  {
    name: "control: FilePath through a namespace import",
    files: { "plan.ts": `import * as c3 from "clauz3";\n${HEAD}export const guarantees = [fs.onlyReadsFiles([c3.FilePath("/data/report.md")])];\n${SAFE_MAIN}` },
    expect: { verdict: "proved" },
  },
];

const argumentsCases: Case[] = [
  {
    name: "a string where number is declared, through as any",
    files: { "plan.ts": `${HEAD}export const guarantees = [fs.writesAtMost("2" as any)];\n${SAFE_MAIN}` },
    expect: { verdict: "refused", at: "plan.ts:3", match: /type assertion in a guarantee argument.*`n` is declared `number`/ },
  },
  {
    name: "strings where FilePath[] is declared, through as any",
    files: { "plan.ts": `${HEAD}export const guarantees = [fs.onlyReadsFiles(["/data/report.md"] as any)];\n${SAFE_MAIN}` },
    expect: { verdict: "refused", at: "plan.ts:3", match: /`files` is declared `FilePath\[\]`/ },
  },
  {
    name: "strings where FilePath[] is declared, without an assertion (a type error)",
    files: { "plan.ts": `${HEAD}export const guarantees = [fs.onlyReadsFiles(["/data/report.md"])];\n${SAFE_MAIN}` },
    expect: { verdict: "refused", at: "plan.ts:3", match: /TS2322/ },
  },
  {
    name: "as unknown as string",
    files: { "plan.ts": `${HEAD}export const guarantees = [fs.neverReadUnder(["/secrets"] as unknown as string)];\n${SAFE_MAIN}` },
    expect: { verdict: "refused", at: "plan.ts:3", match: /type assertion/ },
  },
  {
    name: "a non-null assertion",
    files: { "plan.ts": `${HEAD}export const guarantees = [fs.neverReadUnder("/secrets"!)];\n${SAFE_MAIN}` },
    expect: { verdict: "refused", at: "plan.ts:3", match: /must be literals/ },
  },
  {
    name: "control: literals of the declared types",
    files: { "plan.ts": `import { FilePath } from "clauz3";\n${HEAD}export const guarantees = [fs.writesAtMost(2), fs.onlyReadsFiles([FilePath("/data/report.md")])];\n${SAFE_MAIN}` },
    expect: { verdict: "proved" },
  },
];

describe("main is the exported binding", () => {
  it.each(main.map((c) => [c.name, c] as const))("%s", async (_name, c) => check(c));
});

describe("guarantees are the exported literal array", () => {
  it.each(guarantees.map((c) => [c.name, c] as const))("%s", async (_name, c) => check(c));
});

describe("guarantee arguments have exactly the declared types", () => {
  it.each(argumentsCases.map((c) => [c.name, c] as const))("%s", async (_name, c) => check(c));
});
