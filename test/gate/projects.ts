/**
 * Projects for the gate tests, written to a temporary directory the way a user's project is: a
 * tsconfig.json, a `payments` library (events, effects, contracts, manifest), an agent program,
 * `node_modules/clauz3` (and `typescript`, `@types/node`) linked to this checkout, and a
 * clauz3.lock pinning the trusted files. Each module setting has its own import style: CommonJS
 * projects import without extensions, `nodenext` ESM projects with `.js`.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { lockFor } from "../helpers/lock";
import { ROOT, TSPC, writeFilesAndLink } from "../../fixtures/projects/project.mjs";

export const CLI = path.join(ROOT, "dist/cli/main.js");

export type Files = Record<string, string>;

/** `.js` after relative specifiers (ESM under nodenext), nothing otherwise (CommonJS, bundler). */
export function layerFiles(ext = ""): Files {
  return {
    "tools/payments/clauz3.json": `${JSON.stringify({ title: "Payments", summary: "Charge invoices." }, null, 2)}\n`,
    "tools/payments/trusted/events.ts": `import { Event } from "clauz3/events";

export class Charge extends Event {
  constructor(readonly invoice: string, readonly amount: number) { super(); }
}
`,
    "tools/payments/trusted/effects.ts": `import { requires, trusted } from "clauz3";
import { performs } from "clauz3/events";
import { Charge } from "./events${ext}";

/** Charge an invoice. */
export const pay = trusted(
  performs((invoice: string, amount: number) => new Charge(invoice, amount)),
  requires((amount: number) => amount > 0, "amount must be positive"),
  function pay(invoice: string, amount: number): void {},
);
`,
    "tools/payments/trusted/contracts.ts": `import { contract, type ContractSpec } from "clauz3/spec";
import { Charge } from "./events${ext}";

/** At most n charges. */
export const chargesAtMost = contract(
  { description: "At most {n} invoices are charged." },
  (n: number): ContractSpec => Charge.count().atMost(n),
);
`,
  };
}

/** A proved agent program (`body` replaces its `main`'s body). */
export function planFile(ext = "", body = "  if (invoice.length > 0) pay(invoice, 10);\n"): string {
  return `import { pay } from "./tools/payments/trusted/effects${ext}";
import * as payments from "./tools/payments/trusted/contracts${ext}";

export const guarantees = [payments.chargesAtMost(1)];

export function main(invoice: string): void {
${body}}
`;
}

export function tsconfig(compilerOptions: Record<string, unknown>, plugin: Record<string, unknown> = { transform: "clauz3/plugin" }): string {
  const options = { target: "ES2022", lib: ["ES2022"], types: [], strict: true, skipLibCheck: true, rootDir: ".", outDir: "out", ...compilerOptions, plugins: [plugin] };
  return `${JSON.stringify({ compilerOptions: options, include: ["tools", "plan.ts", "plans"] }, null, 2)}\n`;
}

export interface ProjectSpec {
  readonly files: Files;
  /** Trusted files the lock leaves out; `false`: no lock at all. */
  readonly lock?: { readonly unpinned?: readonly string[] } | false;
  /** Leave `node_modules/clauz3` out (clauz3 is not installed). */
  readonly withoutClauz3?: boolean;
}

const made: string[] = [];

/** Write a project to a new temporary directory; removed by `removeProjects`. */
export function writeProject(spec: ProjectSpec): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "clauz3-gate-"));
  made.push(dir);
  const files: Files = { ...spec.files };
  if (spec.lock !== false) files["clauz3.lock"] = lockFor(spec.files, dir, spec.lock ?? {});
  writeFilesAndLink(dir, files);
  if (spec.withoutClauz3) fs.rmSync(path.join(dir, "node_modules/clauz3"));
  return dir;
}

export function removeProjects(): void {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
}

export interface Run {
  readonly status: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** The built CLI in `dir`, plain output. */
export function clauz3(dir: string, args: readonly string[]): Run {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd: dir, encoding: "utf8", env: { ...process.env, FORCE_COLOR: "0", NO_COLOR: "1" } });
  return { status: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/** The real `tspc` in `dir`, plain output. */
export function tspc(dir: string, args: readonly string[] = ["-p", "tsconfig.json"]): Run {
  const r = spawnSync(process.execPath, [TSPC, "--pretty", "false", ...args], { cwd: dir, encoding: "utf8" });
  return { status: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/** `file(line,col): error TSnnnn` of plain output (tsc's and clauz3's), sorted; `(global)` for lines without a place. */
export function errorLines(output: string): string[] {
  const located = [...output.matchAll(/^(.+?)\((\d+),(\d+)\): error TS(\d+):/gm)].map((m) => `${m[1]}:${m[2]} TS${m[4]}`);
  const global = [...output.matchAll(/^error TS(\d+):/gm)].map((m) => `(global) TS${m[1]}`);
  return [...located, ...global].sort();
}
