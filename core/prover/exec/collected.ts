/**
 * Arrays a loop over an array of unknown length collects with `push`: `const out: T[] = []` before
 * the loop, `out.push(v)` in its body (under any condition, at most once per iteration), `out` read
 * only after the loop. The pushes come in iteration order, one per iteration that makes one, so
 * after the loop `out` is exactly a filtered view (callbacks.ts) of the loop's iterations: base
 * element i is the value iteration i pushes, kept iff iteration i runs, reaches a push and ends
 * normally (its path condition at the end, renamed from the loop's index q to i). It reads like
 * `xs.filter(…).map(…)`: iterated, joined, counted (`length`, counted.ts), spread into a `Set`.
 *
 * Inside the body the array stands for this iteration's pushes only (an empty literal, so the
 * ordinary `push` and path merges count them); any other mention of it there is refused, since
 * the body would read the wrong array. An iteration that ends abruptly stops the run (a `try`
 * around the loop is refused: its `catch` would see the pushes of the iteration that threw).
 */
import type * as TS from "typescript";
import { and, renameSymbols } from "../smt";
import type { Sym } from "../values";
import { elemTypeOf, makeView, renameSym } from "./callbacks";
import { factsAt } from "./counted";
import { currentFrame, inside, refuse, type Exec } from "./context";
import { indexLoops } from "./elements";
import type { State } from "./state";
import { insideTry } from "./try";

const COLLECTED_WHY = "an array a loop over an array of unknown length built with `push`: it can be iterated (`for…of`, `forEach`, `map`, `filter`, `some`, `every`, `find`), joined, spread into a `Set`, and read by `length`, index, `slice` and `at` where the loop runs outside every other loop over an array of unknown length";

/** The loop's collected arrays: bound to this iteration's pushes in the body, to the whole collection after it. */
export interface Collectors {
  enter(body: State): void;
  /** `end`: the join of the iteration's normal ends (fall-through, `continue`, `break`). */
  finish(end: State | null, after: State, assumptionsBefore: number): void;
}

/** `out.push(…)` as a statement, where `id` is `out`. */
function isPushStatement(ex: Exec, id: TS.Identifier): boolean {
  const ts = ex.ts;
  let n: TS.Node = id;
  while (n.parent && (ts.isParenthesizedExpression(n.parent) || ts.isNonNullExpression(n.parent))) n = n.parent;
  const access = n.parent;
  if (!access || !ts.isPropertyAccessExpression(access) || access.expression !== n || access.name.text !== "push") return false;
  const call = access.parent;
  return ts.isCallExpression(call) && call.expression === access && ts.isExpressionStatement(call.parent);
}

/** The arrays the loop body pushes to that are declared outside it, each with its first push. */
function pushTargets(ex: Exec, body: TS.Node): Map<TS.Symbol, TS.Node> {
  const ts = ex.ts;
  const out = new Map<TS.Symbol, TS.Node>();
  const visit = (n: TS.Node): void => {
    if (ts.isIdentifier(n) && isPushStatement(ex, n)) {
      const sym = ex.checker.getSymbolAtLocation(n);
      const decl = sym?.valueDeclaration;
      if (sym && decl && ts.isVariableDeclaration(decl) && !inside(decl, body) && !out.has(sym)) out.set(sym, n.parent.parent);
    }
    ts.forEachChild(n, visit);
  };
  visit(body);
  return out;
}

/**
 * Prepares the collected arrays of a quantified loop at index q over an array of length `len`
 * (undefined when the body pushes to none declared outside it). Refuses, on the node, what the view would not model exactly.
 */
export function beginCollected(ex: Exec, loop: TS.IterationStatement, st: State, q: string, len: string, label: string): Collectors | undefined {
  const ts = ex.ts;
  const body = loop.statement;
  const frame = currentFrame(ex);
  // The owner checks (a `const` array literal, declared by this function, never aliased) are
  // ownedArray's, at the push (it refuses an array captured from outside the function).
  const targets = new Map([...pushTargets(ex, body)].filter(([sym]) => !frame.fn || inside(sym.valueDeclaration!, frame.fn)));
  if (targets.size === 0) return undefined;
  for (const [sym, first] of targets) {
    const name = sym.name;
    const decl = sym.valueDeclaration as TS.VariableDeclaration;
    if (ex.loops.length > 0) {
      refuse(first, `\`${name}\` is collected by a loop nested inside another loop over an array of unknown length, which is not modelled.`, "Collect in the outer loop only, or build the inner result with `filter`/`map`.");
    }
    if (insideTry(ex)) {
      refuse(first, `\`${name}\` is collected by a loop inside a \`try\`: an iteration that throws after its push would leave its element for the \`catch\`, which is not modelled.`, "Move the loop out of the `try`, or build the array with `filter`/`map`.");
    }
    const start = st.env.get(sym);
    if (start?.k !== "arr" || start.items.length > 0) {
      refuse(first, `\`${name}\` is not an empty array literal when the loop starts: only an array a loop over an array of unknown length builds from \`[]\` is modelled.`, `Start it empty right before the loop (\`const ${name}: T[] = []\`), and add what comes before with \`[...before, ...${name}]\` after the loop.`);
    }
    const visit = (n: TS.Node): void => {
      if (ts.isIdentifier(n) && n !== decl.name && ex.checker.getSymbolAtLocation(n) === sym && !isPushStatement(ex, n)) {
        refuse(n, `\`${name}\` is read inside the loop that collects it with \`push\` (over an array of unknown length, only what the loop pushes is modelled, not the array while it grows).`, `Read it after the loop, or keep what the body needs in a variable of its own (a counter: \`let n = 0\` … \`n++\`).`);
      }
      ts.forEachChild(n, visit);
    };
    visit(body);
  }
  const syms = new Set(targets.keys());
  return {
    enter(st2) {
      for (const sym of syms) st2.env.set(sym, { k: "arr", items: [] });
      frame.collecting = { body, syms };
    },
    finish(end, after, assumptionsBefore) {
      const local = ex.world.assumptions.slice(assumptionsBefore).filter((a) => a.loops.includes(q));
      const own = factsAt(local.map((a) => a.term), q);
      const rename = (t: string, i: string): string => renameSymbols(t, new Map([[q, i]]));
      for (const [sym, first] of targets) {
        const v = end?.env.get(sym);
        let pushed: { when: string; value: Sym } | undefined;
        if (!end || !v || (v.k === "arr" && v.items.length === 0)) pushed = undefined;
        else if (v.k === "arr" && v.items.length === 1) pushed = { when: end.pc, value: v.items[0]! };
        else if (v.k === "sarr" && v.bound === 1) pushed = { when: and(end.pc, `(= ${v.len} 1)`), value: v.at("0") };
        else refuse(first, `One iteration may push more than one element to \`${sym.name}\`, which is not modelled over an array of unknown length.`, "Push at most once per iteration (`if (…) out.push(x); else out.push(y)`), or build the array with `flatMap` on a literal array.");
        if (!pushed) {
          after.env.set(sym, { k: "arr", items: [] });
          continue;
        }
        const { when, value } = pushed;
        if (value.k !== "str" && value.k !== "num" && value.k !== "bool" && value.k !== "rec") {
          refuse(first, `\`${sym.name}\` collects values other than strings, numbers, booleans or records of those over an array of unknown length, which is not modelled.`, "Push strings, numbers, booleans or records of those.");
        }
        const elem = elemTypeOf(value, first);
        const seen = new Set<string>();
        const at = (i: string): Sym => {
          // What the iteration established about its value (a tool's `ensures`) holds at every element read.
          if (ex.steps !== undefined && i !== q && !seen.has(i)) {
            seen.add(i);
            for (const a of local) ex.world.assumptions.push({ term: rename(a.term, i), loops: a.loops.flatMap((l) => (l === q ? indexLoops(ex, i) : [l])) });
          }
          return renameSym(value, new Map([[q, i]]));
        };
        const base: Extract<Sym, { k: "sarr" }> = { k: "sarr", len, at, elem, label: `${label}.collected` };
        // The iteration's facts belong to whether it pushed (true in every run), as for `filter`.
        after.env.set(sym, makeView({ base, keep: (i) => and(rename(when, i), own(i)), facts: own }, COLLECTED_WHY));
      }
    },
  };
}

/** Whether `sym` is an array the quantified loop running now collects (ownedArray lets its body push to it). */
export function isCollecting(ex: Exec, sym: TS.Symbol): boolean {
  const c = currentFrame(ex).collecting;
  return c !== undefined && c.body === currentFrame(ex).loopBody && c.syms.has(sym);
}
