/**
 * Inductive invariants of the loops that carry state (exec/loopstate.ts), found Houdini-style:
 * candidates generated from the loop (bounds at the literals its updates and guards mention, the
 * growth of each integer per iteration, "the count or sum of a call so far equals the counter's
 * or total's change", "at most one call while a flag is unset") are checked by the ordinary solver,
 * base (k = 0) and step (k → k + 1 at an arbitrary iteration k, under the conjunction of the
 * survivors); a candidate the solver refutes is dropped, until the conjunction is inductive.
 * Each check asks its skeleton first (abstraction.ts), whose `unsat` is the check's; where the
 * check as written cannot answer, the candidates the skeleton's model breaks are dropped instead.
 *
 * Each body fact gets ghost functions: its count and, for each integer field, its sum over the
 * iterations before k. The encoder reads a count or a sum over the whole loop at k = length,
 * where the invariant holds. An integer variable must be bounded by the invariant (within
 * CARRIED_MAG, where Int and Float64 agree): otherwise the program is refused on its assignment.
 *
 * Spacer (Z3's fixed-point engine) is not used: the z3-solver wasm build exposes `Fixedpoint`, but
 * its answers come over reals and integers without JavaScript's semantics, so every invariant it
 * found would have to be re-checked like these anyway, and the candidates here cover the shapes
 * agents write (budget, counter, found flag, break).
 */
import type * as TS from "typescript";
import type { Fact, LoopState, World } from "./facts";
import { holeOpen } from "./holes";
import type { ProgramBudget } from "./limits";
import { and, implies, ite, not } from "./smt";
import { ARRAY_LENGTH_MAG, MENTIONS_ROUNDED } from "./exec/integers";
import { CARRIED_MAG, CarriedStateRefusal } from "./exec/loopstate";
import type { Z3Session } from "./z3";
import type { GetValues } from "./z3-model";
import { skeletonQuery } from "./abstraction";

/** Resource units of a check's skeleton (linear arithmetic and free atoms: a few thousand units when it answers). */
const SKELETON_RLIMIT = 2_000_000;
/**
 * Resource units of a check as written when its skeleton broke some candidates: about 5 s on an
 * idle machine, then those candidates are dropped (h53 i15, i37: a body of `split`, `trim`,
 * `parseFloat` and `Math.round` whose checks ran the program's 90 s out).
 */
const WRITTEN_AFTER_SKELETON_RLIMIT = 2_000_000;
/** At most this many literals become bound candidates (the smallest in magnitude). */
const MAX_CONSTANTS = 16;

type Cand = (k: string) => string;

const QUANTIFIED = /\((?:forall|exists) \(/;

const app = (fn: string, k: string): string => `(${fn} ${k})`;
const int = (n: number): string => (n < 0 ? `(- ${-n})` : String(n));

/** Integer literals in the loop's terms (not inside string literals or Float64 bit patterns). */
function literals(terms: readonly string[]): number[] {
  const found = new Set<number>();
  for (const t of terms) {
    const bare = t.replace(/"(?:[^"]|"")*"/g, '""').replace(/#b[01]+|#x[0-9a-fA-F]+/g, "");
    for (const m of bare.matchAll(/(?<![\w.!$])(\d+)(?![\w.!$])/g)) {
      const n = Number(m[1]);
      if (Number.isSafeInteger(n) && n <= CARRIED_MAG) found.add(n);
    }
  }
  return [...found];
}

function candidates(ls: LoopState, ghosts: readonly { fn: string; kind: "count" | "sum"; group: string }[]): Map<string, Cand> {
  const out = new Map<string, Cand>();
  const add = (key: string, c: Cand): void => void out.set(key, c);
  // An element's index is bounded by construction (exec/loopstate.ts), not by candidates.
  const ints = ls.vars.filter((v) => v.sort === "Int" && !v.index);
  const bools = ls.vars.filter((v) => v.sort === "Bool");
  const live = ls.vars.find((v) => v.name === "");
  const base = literals([...ints.map((v) => v.next), ...ls.facts.map((f) => f.guard)]);
  for (const v of ints) base.push(Number(v.init.replace(/[()\-\s]/g, "")) * (v.init.startsWith("(-") ? -1 : 1));
  const consts = [...new Set(base.flatMap((c) => [c, c - 1, c + 1, -c]))].filter((c) => Math.abs(c) <= CARRIED_MAG).sort((a, b) => Math.abs(a) - Math.abs(b) || a - b).slice(0, MAX_CONSTANTS * 4);
  for (const v of ints) {
    const s = (k: string) => app(v.fn, k);
    const grow = (k: string) => `(+ ${v.base!} (* ${v.step!} ${k}))`;
    add(`mag ${v.fn}`, (k) => `(and (<= (- ${grow(k)}) ${s(k)}) (<= ${s(k)} ${grow(k)}))`);
    for (const c of consts) {
      add(`le ${v.fn} ${c}`, (k) => `(<= ${s(k)} ${int(c)})`);
      add(`ge ${v.fn} ${c}`, (k) => `(>= ${s(k)} ${int(c)})`);
      if (live) {
        add(`live-le ${v.fn} ${c}`, (k) => implies(app(live.fn, k), `(<= ${s(k)} ${int(c)})`));
        add(`live-ge ${v.fn} ${c}`, (k) => implies(app(live.fn, k), `(>= ${s(k)} ${int(c)})`));
      }
    }
  }
  for (const g of ghosts) {
    const G = (k: string) => app(g.fn, k);
    add(`nonneg ${g.fn}`, (k) => `(>= ${G(k)} 0)`);
    if (g.kind === "count") add(`le-k ${g.fn}`, (k) => `(<= ${G(k)} ${k})`);
    for (const v of ints) {
      const change = (k: string) => `(- ${app(v.fn, k)} ${v.init})`;
      add(`eq ${g.fn} ${v.fn}`, (k) => `(= ${G(k)} ${change(k)})`);
      add(`le ${g.fn} ${v.fn}`, (k) => `(<= ${G(k)} ${change(k)})`);
      add(`ge ${g.fn} ${v.fn}`, (k) => `(>= ${G(k)} ${change(k)})`);
      // A counter that counts down (`left -= 1`): the calls so far are its decrease.
      add(`eq-down ${g.fn} ${v.fn}`, (k) => `(= ${G(k)} (- ${v.init} ${app(v.fn, k)}))`);
      add(`le-down ${g.fn} ${v.fn}`, (k) => `(<= ${G(k)} (- ${v.init} ${app(v.fn, k)}))`);
    }
    for (const b of bools) {
      for (const [set, unset] of [["1", "0"], ["0", "1"]] as const) {
        add(`le ${g.fn} ${b.fn} ${set}`, (k) => `(<= ${G(k)} ${ite(app(b.fn, k), set, unset)})`);
        add(`eq ${g.fn} ${b.fn} ${set}`, (k) => `(= ${G(k)} ${ite(app(b.fn, k), set, unset)})`);
      }
    }
    for (const c of consts) if (c >= 0) add(`le ${g.fn} ${c}`, (k) => `(<= ${G(k)} ${int(c)})`);
  }
  // Several calls that share one counter or total (two branches that each pay and add): their
  // counts, or their sums of one field, together are its change.
  const groups = new Map<string, string[]>();
  for (const g of ghosts) groups.set(g.group, [...(groups.get(g.group) ?? []), g.fn]);
  for (const [group, fns] of groups) {
    if (fns.length < 2) continue;
    const total = (k: string) => `(+ ${fns.map((fn) => app(fn, k)).join(" ")})`;
    for (const v of ints) {
      add(`group-eq ${group} ${v.fn}`, (k) => `(= ${total(k)} (- ${app(v.fn, k)} ${v.init}))`);
      add(`group-le ${group} ${v.fn}`, (k) => `(<= ${total(k)} (- ${app(v.fn, k)} ${v.init}))`);
    }
    for (const c of consts) if (c >= 0) add(`group-le ${group} ${c}`, (k) => `(<= ${total(k)} ${int(c)})`);
  }
  return out;
}

/**
 * Establishes the invariant of every loop that carries state, in program order, and adds it to
 * the world's assumptions (at the loop's index and at its length). Returns the refusal of the first
 * loop whose integer state no invariant bounds, or whose checks the solver could not decide.
 */
export async function establishInvariants(session: Z3Session, world: World, budget: ProgramBudget): Promise<CarriedStateRefusal | undefined> {
  for (const ls of world.loopStates) {
    const refusal = await establish(session, world, budget, ls);
    if (refusal) return refusal;
  }
  return undefined;
}

async function establish(session: Z3Session, world: World, budget: ProgramBudget, ls: LoopState): Promise<CarriedStateRefusal | undefined> {
  const { q, len } = ls;
  const next = `(+ ${q} 1)`;
  const ghosts: { fn: string; kind: "count" | "sum"; fact: Fact; field?: string; group: string }[] = [];
  // Only the calls made once per iteration get ghosts: a call in a loop nested inside (its facts
  // have a second index) may happen many times in one iteration, which one ghost step cannot count.
  for (const f of ls.facts.filter((x) => x.loops.length === 1)) {
    const kind = f.event?.id ?? f.tool.id;
    ghosts.push({ fn: world.fresh("count"), kind: "count", fact: f, group: `count:${kind}` });
    for (const [name, v] of f.fields) if (v.k === "num" && v.int !== undefined) ghosts.push({ fn: world.fresh(`sum.${name}`), kind: "sum", fact: f, field: name, group: `sum:${kind}.${name}` });
  }
  for (const g of ghosts) world.declarations.push(`(declare-fun ${g.fn} (Int) Int)`);
  const ghostBase = ghosts.map((g) => `(= ${app(g.fn, "0")} 0)`);
  const transitions = [
    ...ls.vars.filter((v) => !v.index).map((v) => `(= ${app(v.fn, next)} ${v.next})`),
    ...ghosts.map((g) => {
      const amount = g.kind === "count" ? "1" : (g.fact.fields.get(g.field!) as { int: string }).int;
      return `(= ${app(g.fn, next)} (+ ${app(g.fn, q)} ${ite(g.fact.guard, amount, "0")}))`;
    }),
  ];
  const cands = candidates(ls, ghosts);
  const lengthFacts = [`(>= ${len} 0)`, `(<= ${len} ${ARRAY_LENGTH_MAG})`];
  // Only the quantifier-free assumptions: a check with fewer hypotheses keeps fewer candidates,
  // never a wrong one, and a model of the rest (a membership's definition by earlier iterations,
  // collected.ts) is what the solver cannot build when a candidate fails.
  // Not the facts of rounded numbers (builtins.ts `roundedInteger`), wherever they were copied to:
  // their bound rests on the operands' bounds, a carried variable's among them, which is what this
  // check establishes.
  const common = [...world.assumptions.map((a) => a.term).filter((t) => !QUANTIFIED.test(t) && !MENTIONS_ROUNDED.test(t)), ...lengthFacts, ...ghostBase];
  const decls = world.declarations.join("\n");
  let writtenUndecided = false;
  // Base, then step; dropping a candidate never breaks another's base case, so base runs once to its fixpoint.
  for (const phase of holeOpen("loop-invariant-base-only") ? (["base"] as const) : (["base", "step"] as const)) {
    for (;;) {
      const live = [...cands];
      if (live.length === 0) break;
      const at = phase === "base" ? "0" : next;
      const goals = live.map(([, c]) => c(at));
      const hyps = phase === "base" ? [] : [`(<= 0 ${q})`, `(< ${q} ${len})`, ...transitions, ...live.map(([, c]) => c(q))];
      const limits = budget.next();
      if (!limits) return refuse(ls.node, `the solver ran out of time checking its invariant (${budget.programReason})`);
      const assertions = [...common, ...hyps, not(and(...goals))];
      const holding = async (get: GetValues): Promise<boolean[]> => (await get(goals.map((term) => ({ term, sort: "Bool" as const })))).map((v) => v === "true");
      // The skeleton first (abstraction.ts): its `unsat` is the check's. Its model may be one no
      // run has (a theory atom the skeleton left free), so the candidates it breaks are dropped
      // only when the check as written cannot answer: dropping a true one loses precision, never soundness.
      const skeleton = skeletonQuery(decls, assertions);
      let brokenInSkeleton: string[] | undefined;
      if (skeleton) {
        const abstract = await session.query(skeleton.declarations, skeleton.assertions, { ...limits, rlimit: Math.min(limits.rlimit, SKELETON_RLIMIT) }, holding);
        if (abstract.status === "unsat") break;
        if (abstract.status === "sat") brokenInSkeleton = live.filter((_, i) => !abstract.result[i]).map(([key]) => key);
      }
      const fallback = brokenInSkeleton !== undefined && brokenInSkeleton.length > 0;
      // Once a check as written could not answer, the loop's later checks go by their skeletons alone.
      if (fallback && writtenUndecided) {
        for (const key of brokenInSkeleton!) cands.delete(key);
        continue;
      }
      const answer = await session.query(decls, assertions, fallback ? { ...limits, rlimit: Math.min(limits.rlimit, WRITTEN_AFTER_SKELETON_RLIMIT) } : limits, holding);
      if (answer.status === "unsat") break;
      if (answer.status === "unknown") {
        if (fallback && !answer.wallClock) {
          writtenUndecided = true;
          for (const key of brokenInSkeleton!) cands.delete(key);
          continue;
        }
        return refuse(ls.node, `the solver could not check its invariant (${answer.reason})`);
      }
      const failed = live.filter((_, i) => !answer.result[i]);
      if (failed.length === 0) return refuse(ls.node, "the solver's model did not say which invariant candidate fails");
      for (const [key] of failed) cands.delete(key);
    }
  }
  const keys = [...cands.keys()];
  for (const v of ls.vars) {
    if (v.sort !== "Int") continue;
    if (v.index) continue;
    // Bounded by its growth per iteration over at most 2^32 - 1 iterations, or between two literals.
    const grows = cands.has(`mag ${v.fn}`) && v.base! + ARRAY_LENGTH_MAG * v.step! <= CARRIED_MAG;
    const boxed = keys.some((k) => k.startsWith(`le ${v.fn} `)) && keys.some((k) => k.startsWith(`ge ${v.fn} `));
    if (!grows && !boxed) {
      return new CarriedStateRefusal(v.at, `\`${v.name}\` is carried across iterations of a loop over an array of unknown length, but no invariant bounds it for every length (its integer model is exact only within 2^52).`, "Change it by integers of bounded size (an `ensures` with `Number.isInteger` and literal bounds on the amounts), or guard each change with a literal limit (`if (total + x <= 2000)`).");
    }
  }
  const inv = [...cands.values(), ...ls.vars.flatMap((v) => (v.index ? [v.index] : []))];
  ls.invariant = inv.map((c) => c(q));
  const ghostMap = new Map<Fact, { count: string; sums: Map<string, string> }>();
  for (const g of ghosts) {
    const entry = ghostMap.get(g.fact) ?? { count: "", sums: new Map<string, string>() };
    if (g.kind === "count") entry.count = g.fn;
    else entry.sums.set(g.field!, g.fn);
    ghostMap.set(g.fact, entry);
  }
  ls.ghosts = ghostMap;
  // A ghost between 0 and a literal: every partial sum of its amounts stays within that literal.
  const bounds = new Map<string, number>();
  for (const g of ghosts) {
    const his = keys.filter((k) => k.startsWith(`le ${g.fn} `)).map((k) => Number(k.slice(`le ${g.fn} `.length))).filter((n) => Number.isFinite(n));
    if (cands.has(`nonneg ${g.fn}`) && his.length > 0) bounds.set(g.fn, Math.min(...his));
  }
  ls.ghostBounds = bounds;
  if (inv.length > 0) {
    world.assumptions.push({ term: implies(and(`(<= 0 ${q})`, `(<= ${q} ${len})`), and(...inv.map((c) => c(q)))), loops: [q] });
    world.assumptions.push({ term: and(...inv.map((c) => c(len))), loops: [] });
  }
  world.assumptions.push(...ghostBase.map((term) => ({ term, loops: [] })));
  return undefined;
}

function refuse(node: TS.Node, why: string): CarriedStateRefusal {
  return new CarriedStateRefusal(node, `The loop carries state across iterations, and ${why}.`, "Simplify the loop's state (an integer counter or total, a boolean flag), or loop over a literal array.");
}

/** The ghost count of a fact of a loop that carries state, over the whole loop (undefined for other facts). */
export function ghostCount(world: World, f: Fact): string | undefined {
  for (const ls of world.loopStates) {
    const g = ls.ghosts?.get(f);
    if (g) return app(g.count, ls.len);
  }
  return undefined;
}

/**
 * The ghost sum of a fact's integer field over the whole loop, with the bound the invariant
 * gives every partial sum of it (when it does), or undefined for other facts.
 */
export function ghostSum(world: World, f: Fact, field: string): { term: string; bound: number | undefined } | undefined {
  for (const ls of world.loopStates) {
    const g = ls.ghosts?.get(f)?.sums.get(field);
    if (g) return { term: app(g, ls.len), bound: ls.ghostBounds?.get(g) };
  }
  return undefined;
}
