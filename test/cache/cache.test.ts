/**
 * The proof cache (core/cache, issue 14): a hit costs no solver call and gives the verdict a fresh
 * proof gives; a change to any input of a verdict misses, a change to anything else hits; what is
 * not final is never stored; a corrupt, tampered or foreign entry is ignored and replaced.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import ts from "typescript";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { cacheFor, isCacheable, proveCached, ProofCache } from "../../core/cache";
import { CACHE_FORMAT } from "../../core/cache/key";
import { readLayer } from "../../core/layer/read";
import type { ProgramVerdict, ProveOptions } from "../../core/prover/api";
import { proveProgram } from "../../core/prover/prove";
import { Z3Session } from "../../core/prover/z3";
import { PROOF_CODES, RULES } from "../../core/rules";
import { createProgram, PROJECT } from "../helpers/program";
import { IMPORTS } from "../prover/prove-helpers";
import { TEST_LAYER } from "../prover/layer";

const PLAN = `${IMPORTS}import type { Recipient } from "./helper";
export const guarantees = [m.emailsAtMost(1)];
export function main(to: Recipient): void {
  if (to !== "") sendEmail(to, "hello");
}
`;
const HELPER = `export type Recipient = string;\n`;
const BASE: Record<string, string> = {
  "tools/mail/trusted/layer.ts": TEST_LAYER,
  "plan.ts": PLAN,
  "helper.ts": HELPER,
  "unrelated.ts": `export const other = 1;\n`,
};

let dir: string;
let checks = 0;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "clauz3-cache-"));
  checks = 0;
  Z3Session.beforeCheck = () => void checks++;
  // Every query goes to Z3, so a proof's checks count its queries (ranges would refute PLAN's bound
  // without one, a guessed model would answer a violation without one).
  Z3Session.intervals = false;
  Z3Session.guesses = false;
});
afterEach(() => {
  Z3Session.beforeCheck = undefined;
  Z3Session.intervals = true;
  Z3Session.guesses = true;
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Prove plan.ts of `files` through a cache in `dir` (or none); the solver checks it took. */
async function proveWith(files: Record<string, string>, store: ProofCache | undefined, options: ProveOptions = {}): Promise<{ verdict: ProgramVerdict; checks: number }> {
  const program = createProgram(files);
  const layer = readLayer(ts, program, options);
  const file = program.getSourceFile(`${PROJECT}/plan.ts`)!;
  const before = checks;
  const verdict = await proveCached({ ts, program, file, options }, layer, cacheFor(store, ts, program, layer, options));
  return { verdict, checks: checks - before };
}

describe("a hit", () => {
  it("costs no solver call and is the verdict a fresh proof gives", async () => {
    const store = new ProofCache(dir);
    const first = await proveWith(BASE, store);
    expect(first.checks).toBeGreaterThan(0);
    expect(first.verdict.verdict).toBe("proved");
    expect(store.stats).toEqual({ hits: 0, misses: 1, stored: 1 });
    const second = await proveWith(BASE, store);
    expect(second.checks).toBe(0);
    expect(store.stats.hits).toBe(1);
    expect(second.verdict).toEqual(first.verdict);
    const program = createProgram(BASE);
    const fresh = await proveProgram({ ts, program, file: program.getSourceFile(`${PROJECT}/plan.ts`)! });
    expect(second.verdict).toEqual(JSON.parse(JSON.stringify(fresh)));
  });

  it("keeps a violated verdict with its counterexample", async () => {
    const files = { ...BASE, "plan.ts": PLAN.replace(`if (to !== "") sendEmail`, `sendEmail(to, "a");\n  sendEmail`) };
    const store = new ProofCache(dir);
    const first = await proveWith(files, store);
    expect(first.verdict.verdict).toBe("violated");
    const second = await proveWith(files, store);
    expect(second.checks).toBe(0);
    expect(second.verdict).toEqual(first.verdict);
    expect(second.verdict.results.some((r) => r.counterexample !== undefined)).toBe(true);
  });

  it("never happens without a cache", async () => {
    await proveWith(BASE, undefined);
    expect((await proveWith(BASE, undefined)).checks).toBeGreaterThan(0);
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});

describe("what a verdict reads", () => {
  const changes: [string, Record<string, string>, "miss" | "hit"][] = [
    ["the program's own text", { "plan.ts": PLAN.replace(`"hello"`, `"hello there"`) }, "miss"],
    ["a module it imports", { "helper.ts": `export type Recipient = "ann" | "bob";\n` }, "miss"],
    ["a trusted file", { "tools/mail/trusted/layer.ts": `${TEST_LAYER}\n// reviewed again\n` }, "miss"],
    ["a script (it declares globals)", { "globals.ts": `declare var BUDGET: number;\n` }, "miss"],
    ["a module that augments the global scope", { "unrelated.ts": `export const other = 1;\ndeclare global { var LIMIT: number }\n` }, "miss"],
    ["a declaration file", { "types.d.ts": `declare const VERSION: string;\n` }, "miss"],
    ["a module that nothing it reads imports", { "unrelated.ts": `export const other = 2;\n` }, "hit"],
    ["a new agent module", { "another.ts": `export const more = 3;\n` }, "hit"],
  ];
  for (const [what, change, expected] of changes) {
    it(`${expected === "miss" ? "misses" : "hits"} after a change to ${what}`, async () => {
      const store = new ProofCache(dir);
      await proveWith(BASE, store);
      const hits = store.stats.hits;
      await proveWith({ ...BASE, ...change }, store);
      expect(store.stats.hits > hits ? "hit" : "miss").toBe(expected);
    });
  }

  it("misses when a module it names only in an `import(\"…\")` type changes", async () => {
    const files = { ...BASE, "shape.ts": `export type Who = string;\n`, "plan.ts": PLAN.replace("export const guarantees", `export type Alias = import("./shape").Who;\nexport const guarantees`) };
    const store = new ProofCache(dir);
    await proveWith(files, store);
    expect((await proveWith(files, store)).checks).toBe(0);
    expect((await proveWith({ ...files, "shape.ts": `export type Who = "ann" | "bob";\n` }, store)).checks).toBeGreaterThan(0);
  });

  it("misses under another resource limit, hits under the same", async () => {
    const store = new ProofCache(dir);
    await proveWith(BASE, store, { rlimit: 40_000_000 });
    expect((await proveWith(BASE, store, { rlimit: 40_000_000 })).checks).toBe(0);
    expect((await proveWith(BASE, store, { rlimit: 30_000_000 })).checks).toBeGreaterThan(0);
  });
});

describe("what is never stored", () => {
  const result = (code: number, message = "refused: x") => ({ kind: "guarantee" as const, verdict: "refused" as const, code, message, location: { fileName: "/p/plan.ts", start: 0, length: 1, line: 1, column: 1 } });
  it("an answer the wall clock cut short, an unknown, an internal error, a stack overflow", () => {
    expect(isCacheable({ file: "/p/plan.ts", verdict: "refused", results: [result(PROOF_CODES.refused)] })).toBe(true);
    expect(isCacheable({ file: "/p/plan.ts", verdict: "refused", results: [result(PROOF_CODES.refused)], provisional: "the backstop" })).toBe(false);
    expect(isCacheable({ file: "/p/plan.ts", verdict: "refused", results: [result(PROOF_CODES.unknown)] })).toBe(false);
    expect(isCacheable({ file: "/p/plan.ts", verdict: "refused", results: [result(RULES.internalError.code)] })).toBe(false);
    expect(isCacheable({ file: "/p/plan.ts", verdict: "refused", results: [result(PROOF_CODES.refused, "refused: proving this program ran out of stack (Maximum call stack size exceeded): …")] })).toBe(false);
  });

  it("a verdict that ran out of the resource limit is proved again next time", async () => {
    // A query the solver must work on: one resource unit settles PLAN's, whose only send is
    // within the limit, without counting a unit (z3.ts's first try on the simple solver).
    const files = {
      ...BASE,
      "plan.ts": `${IMPORTS}export const guarantees = [m.emailsAtMost(1)];
export function main(to: string): void {
  if (to.startsWith("a")) sendEmail(to, "hello");
  if (to.startsWith("b")) sendEmail(to, "again");
}
`,
    };
    const store = new ProofCache(dir);
    const first = await proveWith(files, store, { rlimit: 1 });
    expect(first.verdict.verdict).toBe("refused");
    expect(first.verdict.results.some((r) => r.code === PROOF_CODES.unknown)).toBe(true);
    expect(store.stats.stored).toBe(0);
    expect((await proveWith(files, store, { rlimit: 1 })).checks).toBeGreaterThan(0);
    // With the default limit the same program is proved: the refusal was the limit's.
    expect((await proveWith(files, store)).verdict.verdict).toBe("proved");
  });
});

describe("an entry that is not what we wrote", () => {
  async function storedEntry(store: ProofCache): Promise<string> {
    await proveWith(BASE, store);
    const [shard] = fs.readdirSync(dir);
    const [name] = fs.readdirSync(path.join(dir, shard!));
    return path.join(dir, shard!, name!);
  }
  const tamper: [string, (text: string, file: string) => string][] = [
    ["garbage", () => "not json {"],
    ["truncated", (text) => text.slice(0, text.length / 2)],
    ["of another format", (text) => text.replace(CACHE_FORMAT, "clauz3-proof-cache/0")],
    ["under another key", (text, file) => text.replace(path.basename(file, ".json"), "0".repeat(64))],
    ["edited (its digest no longer matches)", (text) => text.replace(`"verdict":"proved"`, `"verdict":"violated"`)],
    [
      "edited with its digest recomputed, but saying proved over a failed result",
      (text) => {
        const entry = JSON.parse(text);
        entry.verdict.results[0].verdict = "violated";
        entry.digest = require("node:crypto").createHash("sha256").update(JSON.stringify(entry.verdict)).digest("hex");
        return JSON.stringify(entry);
      },
    ],
  ];
  for (const [what, edit] of tamper) {
    it(`is ignored when ${what}, and replaced by the next proof`, async () => {
      const store = new ProofCache(dir);
      const file = await storedEntry(store);
      const good = fs.readFileSync(file, "utf8");
      fs.writeFileSync(file, edit(good, file));
      const again = await proveWith(BASE, store);
      expect(again.checks).toBeGreaterThan(0);
      expect(again.verdict.verdict).toBe("proved");
      expect(JSON.parse(fs.readFileSync(file, "utf8"))).toEqual(JSON.parse(good));
    });
  }

  it("a cache that cannot be written never fails a proof", async () => {
    const blocked = path.join(dir, "file");
    fs.writeFileSync(blocked, "a file where the cache directory should be");
    const store = new ProofCache(blocked);
    const first = await proveWith(BASE, store);
    expect(first.verdict.verdict).toBe("proved");
    expect(store.stats.stored).toBe(0);
    expect((await proveWith(BASE, store)).verdict.verdict).toBe("proved");
  });
});
