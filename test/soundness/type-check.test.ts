/**
 * Issue 8, hole 6 (types): a program with any TypeScript error, in itself or in a module it
 * imports, is refused and the refusal names the first error; so is a program that silences the
 * checker (`@ts-ignore`, `@ts-nocheck`, `@ts-expect-error`, values of type `any`) or a project
 * compiled without `strictNullChecks`. Each has a benign twin that stays proved.
 */
import { check, GUARANTEES, HEAD, SAFE_MAIN, type Case } from "./helpers";

const PROGRAM = `${HEAD}${GUARANTEES}`;
/** A trusted tool whose result is typed `any`. */
const NOTES = `import { trusted } from "clauz3";\nexport const lookup = trusted(function lookup(name: string): any {\n  return "/data/" + name;\n});\n`;

const errors: Case[] = [
  {
    name: "a semantic error in the program",
    files: { "plan.ts": `${PROGRAM}export function main(): void {\n  readFile(42);\n}\n` },
    expect: { verdict: "refused", at: "plan.ts:5", match: /TS2345 at plan\.ts:5:12: Argument of type 'number'/ },
  },
  {
    name: "a syntax error in the program",
    files: { "plan.ts": `${PROGRAM}export function main(): void {\n  readFile("/data/report.md";\n}\n` },
    expect: { verdict: "refused", at: "plan.ts:5", match: /TS1005 at plan\.ts:5/ },
  },
  {
    name: "an error in an agent module imported only for a type",
    files: { "plan.ts": `import type { Where } from "./types";\n${PROGRAM}export function main(): void {\n  const where: Where = "/data/report.md";\n  readFile(where);\n}\n`, "types.ts": `export type Where = string;\nexport const limit: number = "ten";\n` },
    expect: { verdict: "refused", at: "types.ts:2", match: /TS2322 at types\.ts:2/ },
  },
  {
    name: "an error in a trusted module the program imports",
    files: {
      "plan.ts": `import { note } from "./tools/notes/trusted/effects";\n${PROGRAM}export function main(): void {\n  note("x");\n  readFile("/data/report.md");\n}\n`,
      "tools/notes/trusted/effects.ts": `import { trusted } from "clauz3";\nexport const note = trusted(function note(text: string): void {\n  const n: number = text;\n});\n`,
    },
    expect: { verdict: "refused", at: "tools/notes/trusted/effects.ts:3", match: /TS2322/ },
  },
  {
    name: "control: the same program without the error",
    files: { "plan.ts": `import type { Where } from "./types";\n${PROGRAM}export function main(): void {\n  const where: Where = "/data/report.md";\n  readFile(where);\n}\n`, "types.ts": `export type Where = string;\nexport const limit: number = 10;\n` },
    expect: { verdict: "proved" },
  },
];

const silencers: Case[] = [
  {
    name: "@ts-ignore above an error",
    files: { "plan.ts": `${PROGRAM}export function main(): void {\n  // @ts-ignore\n  readFile(42);\n}\n` },
    expect: { verdict: "refused", at: "plan.ts:6", match: /`@ts-ignore` silences the type checker/ },
  },
  {
    name: "@ts-expect-error in a block comment",
    files: { "plan.ts": `${PROGRAM}export function main(): void {\n  /* @ts-expect-error */\n  readFile(42);\n}\n` },
    expect: { verdict: "refused", at: "plan.ts:6", match: /`@ts-expect-error`/ },
  },
  {
    name: "@ts-nocheck in an agent module the program imports",
    files: { "plan.ts": `import type { Where } from "./types";\n${PROGRAM}export function main(): void {\n  const where: Where = "/data/report.md";\n  readFile(where);\n}\n`, "types.ts": `// @ts-nocheck\nexport type Where = string;\nexport const limit: number = "ten";\n` },
    expect: { verdict: "refused", at: "types.ts:2", match: /`@ts-nocheck`/ },
  },
  {
    name: "control: the directives as text in strings and as prose in comments",
    files: { "plan.ts": `${PROGRAM}// Never write "@ts-ignore" or \`@ts-nocheck\` here.\nexport function main(): void {\n  readFile("/data/@ts-ignore.md");\n}\n` },
    expect: { verdict: "proved" },
  },
];

const anys: Case[] = [
  {
    name: "a value of type any reaches a call",
    files: { "plan.ts": `${PROGRAM}export function main(path: string): void {\n  const p: any = path;\n  if (!path.startsWith("/secrets")) readFile(p);\n}\n` },
    expect: { verdict: "refused", at: "plan.ts:6", match: /`p` has type `any`/ },
  },
  {
    name: "an `as any` condition",
    files: { "plan.ts": `${PROGRAM}export function main(path: string): void {\n  if ((path as any) !== "" && !path.startsWith("/secrets")) readFile(path);\n}\n` },
    expect: { verdict: "refused", at: "plan.ts:5", match: /has type `any`/ },
  },
  {
    name: "an array of any",
    files: { "plan.ts": `${PROGRAM}export function main(path: string): void {\n  const paths: any[] = [path];\n  for (const p of paths) readFile(p);\n}\n` },
    expect: { verdict: "refused", at: "plan.ts:6", match: /`paths` has type `any`/ },
  },
  {
    name: "the any-typed result of a tool reaches a call",
    files: { "plan.ts": `import { lookup } from "./tools/notes/trusted/effects";\n${PROGRAM}export function main(): void {\n  const where = lookup("report");\n  readFile(where);\n}\n`, "tools/notes/trusted/effects.ts": NOTES },
    expect: { verdict: "refused", at: "plan.ts:6", match: /`lookup\("report"\)` has type `any`/ },
  },
  {
    name: "control: the any-typed result of a tool, discarded",
    files: { "plan.ts": `import { lookup } from "./tools/notes/trusted/effects";\n${PROGRAM}export function main(): void {\n  lookup("report");\n  readFile("/data/report.md");\n}\n`, "tools/notes/trusted/effects.ts": NOTES },
    expect: { verdict: "proved" },
  },
  {
    name: "control: the same values with their real types",
    files: { "plan.ts": `${PROGRAM}export function main(path: string): void {\n  const p: string = path;\n  if (p !== "" && !p.startsWith("/secrets")) readFile(p);\n}\n` },
    expect: { verdict: "proved" },
  },
];

const strictness: Case[] = [
  {
    name: "a program written in JavaScript (allowJs)",
    files: { "plan.js": `import { readFile } from "./tools/filesystem/trusted/effects";\nimport * as fs from "./tools/filesystem/trusted/contracts";\nexport const guarantees = [fs.neverReadUnder("/secrets")];\nexport function main(path) {\n  readFile(path);\n}\n` },
    options: { allowJs: true },
    program: "plan.js",
    expect: { verdict: "refused", at: "plan.js:1", match: /plan\.js is not a TypeScript source/ },
  },
  {
    name: "a project compiled without strict",
    files: { "plan.ts": `${PROGRAM}${SAFE_MAIN}` },
    options: { strict: false },
    expect: { verdict: "refused", at: "plan.ts:1", match: /without `strictNullChecks`.*Enable `"strict": true`/ },
  },
  {
    name: "control: strictNullChecks without the rest of strict",
    files: { "plan.ts": `${PROGRAM}${SAFE_MAIN}` },
    options: { strict: false, strictNullChecks: true },
    expect: { verdict: "proved" },
  },
];

describe("TypeScript errors refuse the program", () => {
  it.each(errors.map((c) => [c.name, c] as const))("%s", async (_name, c) => check(c));
});

describe("silencing the checker refuses the program", () => {
  it.each(silencers.map((c) => [c.name, c] as const))("%s", async (_name, c) => check(c));
});

describe("values of type any refuse the program", () => {
  it.each(anys.map((c) => [c.name, c] as const))("%s", async (_name, c) => check(c));
});

describe("strictNullChecks is required", () => {
  it.each(strictness.map((c) => [c.name, c] as const))("%s", async (_name, c) => check(c));
});
