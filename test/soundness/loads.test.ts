/**
 * Issue 8, hole 7 ("everything that loads is checked"): every module the program loads at run
 * time, resolved the way Node resolves it, is trusted-layer code, an agent module held to the
 * agent rules (transitively), `clauz3` itself, or refused. Each trick has a benign twin.
 */
import { baseFiles } from "../helpers/program";
import { check, GUARANTEES, HEAD, SAFE_MAIN, type Case } from "./helpers";

/** The clauz3 package of the in-memory projects, copied to `dir` (relative to the project). */
function runtimeCopy(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, text] of baseFiles()) if (name.startsWith("/node_modules/clauz3/")) out[`${dir}/${name.slice("/node_modules/clauz3/".length)}`] = text;
  return out;
}

const PROGRAM = `${HEAD}${GUARANTEES}${SAFE_MAIN}`;
/** An agent module that reads the secret when it is loaded. */
const LEAKS_AT_LOAD = `import { readFile } from "./tools/filesystem/trusted/effects";\nreadFile("/secrets/key");\n`;
/** An agent module with only declarations. */
const QUIET = `export interface Where { readonly path: string }\nexport function describe(w: Where): string {\n  return w.path;\n}\n`;

const agentModules: Case[] = [
  {
    name: "a side-effect import of a module that calls a tool at load",
    files: { "plan.ts": `import "./setup";\n${PROGRAM}`, "setup.ts": LEAKS_AT_LOAD },
    expect: { verdict: "refused", at: "setup.ts:2", match: /Top-level statements run when the module is imported/ },
  },
  {
    name: "control: a side-effect import of a module with only declarations",
    files: { "plan.ts": `import "./setup";\n${PROGRAM}`, "setup.ts": QUIET },
    expect: { verdict: "proved" },
  },
  {
    name: "export * through a chain of agent modules",
    files: { "plan.ts": `${PROGRAM}export * from "./a";\n`, "a.ts": `export * from "./b";\n`, "b.ts": `${LEAKS_AT_LOAD}export const limit = 3;\n` },
    expect: { verdict: "refused", at: "b.ts:2", match: /Top-level statements/ },
  },
  {
    name: "export { x } from a module whose top level computes",
    files: { "plan.ts": `import "./a";\n${PROGRAM}`, "a.ts": `export { limit } from "./b";\n`, "b.ts": `import { readLines } from "./tools/filesystem/trusted/effects";\nexport const limit = readLines("/secrets/key").length;\n` },
    expect: { verdict: "refused", at: "b.ts:2", match: /Top-level code runs when the module is imported/ },
  },
  {
    name: "import x = require(...) of a module that calls a tool at load",
    files: { "plan.ts": `import setup = require("./setup");\n${PROGRAM}`, "setup.ts": `${LEAKS_AT_LOAD}export const ready = true;\n` },
    expect: { verdict: "refused", at: "setup.ts:2", match: /Top-level statements/ },
  },
  {
    name: "a trusted module that loads an agent module",
    files: {
      "plan.ts": `import { note } from "./tools/notes/trusted/effects";\n${HEAD}${GUARANTEES}export function main(): void {\n  note("x");\n}\n`,
      "tools/notes/trusted/effects.ts": `import { trusted } from "clauz3";\nimport "../../../setup";\nexport const note = trusted(function note(text: string): void {});\n`,
      "setup.ts": LEAKS_AT_LOAD,
    },
    expect: { verdict: "refused", at: "setup.ts:2", match: /Top-level statements/ },
  },
  {
    name: "control: import type of a module that calls a tool at load (nothing loads)",
    files: { "plan.ts": `import type { Ready } from "./setup";\n${PROGRAM}export type Status = Ready;\n`, "setup.ts": `${LEAKS_AT_LOAD}export type Ready = boolean;\n` },
    expect: { verdict: "proved" },
  },
  {
    name: "control: an import whose only binding is a type is erased",
    files: { "plan.ts": `import { Ready } from "./setup";\n${PROGRAM}export type Status = Ready;\n`, "setup.ts": `${LEAKS_AT_LOAD}export type Ready = boolean;\n` },
    expect: { verdict: "proved" },
  },
  {
    name: "under verbatimModuleSyntax an import of types still loads the module",
    files: { "plan.ts": `import { type Ready } from "./setup";\n${PROGRAM}export type Status = Ready;\n`, "setup.ts": `${LEAKS_AT_LOAD}export type Ready = boolean;\n` },
    options: { verbatimModuleSyntax: true },
    expect: { verdict: "refused", at: "setup.ts:2", match: /Top-level statements/ },
  },
];

/**
 * Constants a module may build at load without running code: plain object literals, and `new Map`
 * / `new Set` of literal arrays (the built-ins: a local or imported `Map` runs its own code).
 */
const ROUTES = `const ROUTES = new Map([["report", "/data/report.md"], ["notes", "/data/notes.md"]]);\nconst SEEN = new Set(["report"]);\nconst CFG = { dir: "/data", "max files": 2, nested: { on: true } };\n`;
const loadTimeConstants: Case[] = [
  {
    name: "control: a Map, a Set and an object of literals at the top level, read in main",
    files: { "plan.ts": `${HEAD}${ROUTES}${GUARANTEES}export function main(key: string): void {\n  const path = ROUTES.get(key) ?? CFG.dir + "/index.md";\n  if (SEEN.has(key) || CFG.nested.on) readFile(path);\n}\n` },
    expect: { verdict: "proved" },
  },
  {
    name: "a top-level Map whose value the guarantee forbids is read in main",
    files: { "plan.ts": `${HEAD}const ROUTES = new Map([["key", "/secrets/key"]]);\n${GUARANTEES}export function main(key: string): void {\n  const path = ROUTES.get(key);\n  if (path !== undefined) readFile(path);\n}\n` },
    expect: { verdict: "violated", line: 7 },
  },
  {
    name: "a `Map` imported from an agent module is not the built-in",
    files: {
      "plan.ts": `import { Map } from "./maps";\n${HEAD}const ROUTES = new Map([["a", "b"]]);\n${GUARANTEES}${SAFE_MAIN}`,
      "maps.ts": `export class Map<K, V> {\n  constructor(entries: [K, V][]) {\n    void entries;\n  }\n}\n`,
    },
    expect: { verdict: "refused", at: "plan.ts:4", match: /Top-level code runs when the module is imported/ },
  },
  {
    name: "a getter in a top-level object literal runs code when read",
    files: { "plan.ts": `${HEAD}const CFG = { get dir() { return "/secrets"; } };\n${GUARANTEES}${SAFE_MAIN}` },
    expect: { verdict: "refused", at: "plan.ts:3", match: /Top-level code runs when the module is imported/ },
  },
  {
    name: "a spread and a computed name in a top-level object literal",
    files: { "plan.ts": `${HEAD}const BASE = { a: 1 };\nconst CFG = { ...BASE, ["b"]: 2 };\n${GUARANTEES}${SAFE_MAIN}` },
    expect: { verdict: "refused", at: "plan.ts:4", match: /Top-level code runs when the module is imported/ },
  },
  {
    name: "a top-level Map built from a computed array",
    files: { "plan.ts": `${HEAD}const PAIRS: [string, string][] = [["a", "b"]];\nconst ROUTES = new Map(PAIRS.map(([k, v]) => [k, v]));\n${GUARANTEES}${SAFE_MAIN}` },
    expect: { verdict: "refused", at: "plan.ts:4", match: /Top-level code runs when the module is imported/ },
  },
];

const javascript: Case[] = [
  {
    name: "a .d.ts that shadows the .js Node loads",
    files: { "plan.ts": `import { read } from "./lib";\n${HEAD}${GUARANTEES}export function main(): void {\n  read("/data/report.md");\n}\n`, "lib.d.ts": `export { readFile as read } from "./tools/filesystem/trusted/effects";\n`, "lib.js": `exports.read = function read() {};\n` },
    expect: { verdict: "refused", at: "plan.ts:1", match: /reads only the declarations lib\.d\.ts/ },
  },
  {
    name: "control: only a type from the declarations",
    files: { "plan.ts": `import type { Where } from "./lib";\n${PROGRAM}export type Here = Where;\n`, "lib.d.ts": `export type Where = string;\n`, "lib.js": `exports.read = function read() {};\n` },
    expect: { verdict: "proved" },
  },
  {
    name: "a .js beside the .ts that Node's require loads instead",
    files: { "plan.ts": `import { read } from "./lib";\n${HEAD}${GUARANTEES}export function main(): void {\n  read("/data/report.md");\n}\n`, "lib.ts": `export { readFile as read } from "./tools/filesystem/trusted/effects";\n`, "lib.js": `exports.read = function read() {};\n` },
    expect: { verdict: "refused", at: "plan.ts:1", match: /Node would load \/project\/lib\.js/ },
  },
  {
    name: "a directory with a package.json beside the .ts",
    files: { "plan.ts": `import { read } from "./lib";\n${HEAD}${GUARANTEES}export function main(): void {\n  read("/data/report.md");\n}\n`, "lib.ts": `export { readFile as read } from "./tools/filesystem/trusted/effects";\n`, "lib/package.json": `{ "main": "evil.js" }` },
    expect: { verdict: "refused", at: "plan.ts:1", match: /Node would load \/project\/lib\/package\.json/ },
  },
  {
    name: "control: the same module with no JavaScript beside it",
    files: { "plan.ts": `import { read } from "./lib";\n${HEAD}${GUARANTEES}export function main(): void {\n  read("/data/report.md");\n}\n`, "lib.ts": `export { readFile as read } from "./tools/filesystem/trusted/effects";\n` },
    expect: { verdict: "proved" },
  },
  {
    name: "control: the build's own output beside the source (emit without outDir)",
    files: { "plan.ts": `import { read } from "./lib";\n${HEAD}${GUARANTEES}export function main(): void {\n  read("/data/report.md");\n}\n`, "lib.ts": `export { readFile as read } from "./tools/filesystem/trusted/effects";\n`, "lib.js": `export { readFile as read } from "./tools/filesystem/trusted/effects";\n` },
    options: { noEmit: false },
    expect: { verdict: "proved" },
  },
  {
    name: "a .js beside the .ts when the build writes elsewhere (outDir)",
    files: { "plan.ts": `import { read } from "./lib";\n${HEAD}${GUARANTEES}export function main(): void {\n  read("/data/report.md");\n}\n`, "lib.ts": `export { readFile as read } from "./tools/filesystem/trusted/effects";\n`, "lib.js": `exports.read = function read() {};\n` },
    options: { noEmit: false, outDir: "/project/out" },
    expect: { verdict: "refused", at: "plan.ts:1", match: /Node would load \/project\/lib\.js/ },
  },
  {
    name: "a .js module under allowJs",
    files: { "plan.ts": `import { limit } from "./lib.js";\n${PROGRAM}export const max = limit;\n`, "lib.js": `export const limit = 3;\n` },
    options: { allowJs: true },
    expect: { verdict: "refused", at: "plan.ts:1", match: /lib\.js, which is not TypeScript/ },
  },
  {
    name: "a .js module TypeScript cannot type (noImplicitAny)",
    files: { "plan.ts": `import "./lib.js";\nimport { limit } from "./lib.js";\n${PROGRAM}export const max = limit;\n`, "lib.js": `export const limit = 3;\n` },
    expect: { verdict: "refused", at: "plan.ts:2", match: /TS7016/ },
  },
  {
    name: "a side-effect import of a .js module TypeScript does not read",
    files: { "plan.ts": `import "./lib.js";\n${PROGRAM}`, "lib.js": `require("fs").writeFileSync("/tmp/x", "");\n` },
    expect: { verdict: "refused", at: "plan.ts:1", match: /TypeScript has no source for `\.\/lib\.js`/ },
  },
  {
    name: "a JSON module",
    files: { "plan.ts": `import data from "./data.json";\n${PROGRAM}export const size = data.size;\n`, "data.json": `{ "size": 3 }` },
    options: { resolveJsonModule: true },
    expect: { verdict: "refused", at: "plan.ts:1", match: /data\.json, which is not TypeScript/ },
  },
  {
    name: "rootDirs maps ./helper to another directory",
    files: { "plan.ts": `import "./helper";\n${PROGRAM}`, "gen/helper.ts": QUIET },
    options: { rootDirs: ["/project", "/project/gen"] },
    expect: { verdict: "refused", at: "plan.ts:1", match: /through `paths`, `baseUrl` or `rootDirs`/ },
  },
];

const packages: Case[] = [
  {
    name: "a package the agent wrote under node_modules",
    files: { "plan.ts": `import { read } from "helper";\n${HEAD}${GUARANTEES}export function main(): void {\n  read("/data/report.md");\n}\n`, "node_modules/helper/package.json": `{ "name": "helper", "main": "index.js", "types": "index.d.ts" }`, "node_modules/helper/index.d.ts": `export declare function read(path: string): void;\n`, "node_modules/helper/index.js": `exports.read = function read() {};\n` },
    expect: { verdict: "refused", at: "plan.ts:1", match: /Node resolves it as a package under `node_modules`/ },
  },
  {
    name: "a package reached by a relative path",
    files: { "plan.ts": `import "./node_modules/helper/index";\n${PROGRAM}`, "node_modules/helper/index.ts": QUIET },
    expect: { verdict: "refused", at: "plan.ts:1", match: /inside `node_modules`/ },
  },
  {
    name: "Node built-ins with effects",
    files: { "plan.ts": `import * as cp from "node:child_process";\n${PROGRAM}export const spawn = cp.spawn;\n` },
    expect: { verdict: "refused", at: "plan.ts:1", match: /`node:child_process` is a Node built-in module/ },
  },
  {
    name: "a built-in without the node: prefix",
    files: { "plan.ts": `import "fs";\n${PROGRAM}` },
    expect: { verdict: "refused", at: "plan.ts:1", match: /`fs` is a Node built-in module/ },
  },
  {
    name: "control: a type from a built-in and clauz3 by its package name",
    files: { "plan.ts": `import type { PathLike } from "node:fs";\nimport { FilePath } from "clauz3";\n${HEAD}export const guarantees = [fs.onlyReadsFiles([FilePath("/data/report.md")])];\nexport type Where = Extract<PathLike, string>;\n${SAFE_MAIN}` },
    expect: { verdict: "proved" },
  },
  {
    name: "a copy of clauz3 that Node would find before the one TypeScript read",
    files: { "plan.ts": `import { FilePath } from "clauz3";\n${HEAD}export const guarantees = [fs.onlyReadsFiles([FilePath("/data/report.md")])];\n${SAFE_MAIN}`, "node_modules/clauz3/package.json": `{ "name": "clauz3", "main": "index.js" }`, "node_modules/clauz3/index.js": `exports.FilePath = (p) => p;\n` },
    options: { paths: { clauz3: ["/node_modules/clauz3/runtime/index.ts"], "clauz3/*": ["/node_modules/clauz3/runtime/*.ts"] } },
    expect: { verdict: "refused", at: "plan.ts:1", match: /Node would load `clauz3` from \/project\/node_modules\/clauz3/ },
  },
  {
    name: "a copy of clauz3 nearer the program than the project's installation",
    files: { "sub/plan.ts": `import "clauz3";\n${HEAD.replaceAll("./tools/", "../tools/")}${GUARANTEES}${SAFE_MAIN}`, ...runtimeCopy("sub/node_modules/clauz3") },
    program: "sub/plan.ts",
    expect: { verdict: "refused", at: "sub/plan.ts:1", match: /not from \/node_modules\/clauz3, the installation the project resolves/ },
  },
  {
    name: "control: the same paths mapping with no other copy",
    files: { "plan.ts": `import { FilePath } from "clauz3";\n${HEAD}export const guarantees = [fs.onlyReadsFiles([FilePath("/data/report.md")])];\n${SAFE_MAIN}` },
    options: { paths: { clauz3: ["/node_modules/clauz3/runtime/index.ts"], "clauz3/*": ["/node_modules/clauz3/runtime/*.ts"] } },
    expect: { verdict: "proved" },
  },
];

const declarations: Case[] = [
  {
    name: "an ambient declare module for a package",
    files: { "plan.ts": `import "helper";\n${PROGRAM}`, "types.d.ts": `declare module "helper" {\n  export const version: string;\n}\n` },
    expect: { verdict: "refused", at: "types.d.ts:1", match: /`declare module` and `declare global`/ },
  },
  {
    name: "a module augmentation that adds a field to a trusted module's types",
    files: { "plan.ts": `${PROGRAM}`, "augment.ts": `export {};\ndeclare module "./tools/filesystem/trusted/events" {\n  interface Read { readonly owner: string }\n}\n` },
    expect: { verdict: "refused", at: "augment.ts:2", match: /`declare module` and `declare global`/ },
  },
  {
    name: "declare global",
    files: { "plan.ts": `${PROGRAM}`, "augment.ts": `export {};\ndeclare global {\n  interface String { readonly secret: string }\n}\n` },
    expect: { verdict: "refused", at: "augment.ts:2", match: /`declare module` and `declare global`/ },
  },
  {
    name: "a script file whose declarations are global",
    files: { "plan.ts": `${PROGRAM}`, "globals.d.ts": `declare const SECRET_DIR: string;\n` },
    expect: { verdict: "refused", at: "globals.d.ts:1", match: /is a script/ },
  },
  {
    name: "a script that calls itself a default library (no-default-lib)",
    files: { "plan.ts": `${PROGRAM}`, "evil.d.ts": `/// <reference no-default-lib="true"/>\n/// <reference lib="es2022" />\ninterface String { readonly secret: string }\n` },
    expect: { verdict: "refused", at: "evil.d.ts:3", match: /is a script/ },
  },
  {
    name: "a name added to clauz3 by an augmentation (in a trusted file)",
    files: { "plan.ts": `import { FilePath, evil } from "clauz3";\n${HEAD}export const guarantees = [fs.onlyReadsFiles([FilePath("/data/report.md")])];\nexport const hook = evil;\n${SAFE_MAIN}`, "tools/extra/trusted/augment.ts": `export {};\ndeclare module "clauz3" {\n  export function evil(): void;\n}\n` },
    expect: { verdict: "refused", at: "plan.ts:1", match: /`evil` is not declared by the clauz3 runtime/ },
  },
  {
    name: "an ambient declaration in an agent module",
    files: { "plan.ts": `import "./setup";\n${PROGRAM}`, "setup.ts": `export declare function leak(): void;\n` },
    expect: { verdict: "refused", at: "setup.ts:1", match: /Ambient \(`declare`\) declarations/ },
  },
];

describe("agent modules a program loads are held to the agent rules", () => {
  it.each(agentModules.map((c) => [c.name, c] as const))("%s", async (_name, c) => check(c));
});

describe("constants built at load from literals", () => {
  it.each(loadTimeConstants.map((c) => [c.name, c] as const))("%s", async (_name, c) => check(c));
});

describe("what Node loads is what TypeScript checked", () => {
  it.each(javascript.map((c) => [c.name, c] as const))("%s", async (_name, c) => check(c));
});

describe("packages: only clauz3 (and no built-in)", () => {
  it.each(packages.map((c) => [c.name, c] as const))("%s", async (_name, c) => check(c));
});

describe("declarations that change what other modules look like", () => {
  it.each(declarations.map((c) => [c.name, c] as const))("%s", async (_name, c) => check(c));
});
