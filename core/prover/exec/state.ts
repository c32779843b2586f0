/**
 * Paths: the state along one path (`State`), how control leaves a statement (`Flow`, `break`,
 * `continue`), and where paths split and meet again (`join`, `joinStates`, `branchValues`), with
 * long terms named so that repeated splits do not double them.
 */
import type * as TS from "typescript";
import { and, FLOAT64, not, or, rejoin, renameSymbols } from "../smt";
import { merge, UNDEF, type Sym } from "../values";
import { PC_NAME_AT } from "./caps";
import { refuse, type Exec } from "./context";
import { compactView } from "./callbacks";

/** Mutable execution state along one path. */
export interface State {
  pc: string;
  env: Map<TS.Symbol, Sym>;
}

/** How control leaves a statement: falling through, returning, or jumping to an enclosing loop or switch. */
export interface Flow {
  fall: State | null;
  /** Paths that returned: where, the value, and the variables at the `return` statement (when it was one). */
  returns: { pc: string; value: Sym; env?: ReadonlyMap<TS.Symbol, Sym> }[];
  /** Paths that left by `break` or `continue`, for the enclosing loop (or switch, for `break`). */
  jumps?: Jump[];
}

export interface Jump {
  readonly kind: "break" | "continue";
  readonly state: State;
  readonly node: TS.Node;
  /** The label it names (`continue outer`); a jump without one ends at the innermost loop (or switch, for `break`). */
  readonly label?: string;
}

const NO_LABELS: ReadonlySet<string> = new Set();

/** The labels a loop or switch carries (`outer: for …`, `a: b: for …`). */
export function labelsOf(ex: Exec, s: TS.Node): ReadonlySet<string> {
  let labels: Set<string> | undefined;
  for (let p = s.parent; p && ex.ts.isLabeledStatement(p); p = p.parent) (labels ??= new Set()).add(p.label.text);
  return labels ?? NO_LABELS;
}

/**
 * Before a path splits, give a long path condition a name: both branches repeat it, and where
 * they meet again as `(or (and pc c …) (and pc (not c) …))` it appears twice, so a sequence of
 * splits that do not rejoin exactly (an `ensures` on one side, a throw) doubles the text each
 * time. The name is a macro over the quantified loop indices in scope (so renaming an index,
 * as "another iteration" does, still reaches inside it): the same formula, shared.
 */
export function compactPc(ex: Exec, st: State): void {
  st.pc = nameTerm(ex, st.pc, "Bool", "pc");
}

/**
 * A long term as a macro over the quantified loop indices in scope; short terms as they are
 * (`always`: every compound term, for a value the ranges should narrow by name, intervals.ts).
 */
export function nameTerm(ex: Exec, term: string, sort: string, prefix: string, always = false): string {
  if (term.length <= PC_NAME_AT && !(always && term.startsWith("("))) return term;
  const name = ex.world.fresh(prefix);
  // Every loop index the term mentions is a parameter, also one whose loop already ended: a state
  // joined after the body (collected.ts, loopstate.ts) still speaks of the iteration, and is renamed
  // to other iterations later (outside review adv36: a macro with its index free read the same
  // iteration at every index).
  const ended = [...ex.world.loopRanges.keys()].filter((q) => !ex.loops.includes(q) && mentionsSymbol(term, q));
  const indices = [...ex.loops, ...ended];
  const params = indices.map((q, i) => [q, `${name}.${i}`] as const);
  const body = renameSymbols(term, new Map(params));
  ex.world.declarations.push(`(define-fun ${name} (${params.map(([, p]) => `(${p} Int)`).join(" ")}) ${sort} ${body})`);
  if (sort === "Bool") ex.world.named.set(name, { params: params.map(([, p]) => p), body });
  return params.length === 0 ? name : `(${name} ${indices.join(" ")})`;
}

/** Whether a term mentions a symbol (a cheap over-estimate: a mention inside a string literal counts too, which only adds a parameter). */
function mentionsSymbol(term: string, sym: string): boolean {
  let at = term.indexOf(sym);
  while (at >= 0) {
    const before = at === 0 ? " " : term[at - 1]!;
    const after = term[at + sym.length] ?? " ";
    if (/[\s()]/.test(before) && /[\s()]/.test(after)) return true;
    at = term.indexOf(sym, at + 1);
  }
  return false;
}

/**
 * A Set or Map with its slots' long terms named. A slot's presence reads every earlier slot's (it
 * is added where no present slot holds its key), so unnamed they nest: ten `add`s of a
 * de-duplicating loop made a query of 29 million characters.
 */
export function compactCollection(ex: Exec, c: Extract<Sym, { k: "coll" }>): Sym {
  return {
    k: "coll",
    map: c.map,
    slots: c.slots.map((s) => ({ ...s, present: nameTerm(ex, s.present, "Bool", "slot"), key: compactSym(ex, s.key), ...(s.value !== undefined ? { value: compactSym(ex, s.value) } : {}) })),
  };
}

/**
 * A value merged where paths meet (`ite` over their conditions) with its long terms named: a
 * loop-carried counter guarded by its own value (`if (n < 5) n++`) repeats itself in the
 * condition and both branches, doubling with every unrolled iteration.
 */
export function compactSym(ex: Exec, v: Sym): Sym {
  switch (v.k) {
    case "str": return { ...v, t: nameTerm(ex, v.t, "String", "v") };
    case "bool": return { ...v, t: nameTerm(ex, v.t, "Bool", "v") };
    case "num": return v.int !== undefined ? { ...v, t: nameTerm(ex, v.t, FLOAT64, "v"), int: nameTerm(ex, v.int, "Int", "v") } : { ...v, t: nameTerm(ex, v.t, FLOAT64, "v") };
    case "maybe": return { k: "maybe", def: nameTerm(ex, v.def, "Bool", "v"), v: compactSym(ex, v.v) };
    case "arr": return { k: "arr", items: v.items.map((x) => compactSym(ex, x)) };
    case "sarr": return compactArray(ex, v);
    case "rec": return { k: "rec", fields: new Map([...v.fields].map(([k, x]) => [k, compactSym(ex, x)])), ...(v.literal ? { literal: true as const } : {}) };
    case "coll": return compactCollection(ex, v);
    default: return v;
  }
}

/**
 * An array of unknown length with its long length named and its reads at literal indices named
 * (the same term, shared): a merged array reads its element as `ite(c, a[i], b[i])`, and an array
 * pushed to on one branch per unrolled iteration repeats the previous element on both sides, which
 * doubled the text of `paid[3]` with every iteration. Reads at another index are left as they are
 * (the index may be a quantifier's bound variable); names are per quantified loop scope, as
 * `nameTerm` makes them macros over the indices in scope.
 */
function compactArray(ex: Exec, v: Extract<Sym, { k: "sarr" }>): Sym {
  const len = v.len.length > PC_NAME_AT ? nameTerm(ex, v.len, "Int", "len") : v.len;
  const seen = new Map<string, Sym>();
  const at = (index: string): Sym => {
    if (!/^\d+$/.test(index)) return v.at(index);
    const key = `${index} ${ex.loops.join(" ")}`;
    let read = seen.get(key);
    if (!read) seen.set(key, (read = compactSym(ex, v.at(index))));
    return read;
  };
  return { ...v, len, at };
}

/**
 * `merge` of two values of a variable where paths meet; a filtered view (an array the program
 * spread from a `filter` or a Set, not yet changed) meeting the array it became on the other path
 * (`queue.shift()` in a loop that may not run) is read as its compacted array first.
 */
function mergeStates(ex: Exec, c: string, a: Sym, b: Sym): Sym | undefined {
  const m = merge(c, a, b);
  if (m || (a.k !== "opaque" && b.k !== "opaque")) return m;
  const x = a.k === "opaque" ? compactView(ex, a) : a;
  const y = b.k === "opaque" ? compactView(ex, b) : b;
  return x && y ? merge(c, x, y) : undefined;
}

/** Join two branch states after `if (c)`; variables assigned in either branch become `ite(c, …)`. */
export function join(ex: Exec, outer: State, c: string, a: State | null, b: State | null, at: TS.Node): State | null {
  if (!a) return b;
  if (!b) return a;
  const pc = a.pc === and(outer.pc, c) && b.pc === and(outer.pc, not(c)) ? outer.pc : or(a.pc, b.pc);
  const env = new Map<TS.Symbol, Sym>();
  for (const [k, va] of a.env) {
    const vb = b.env.get(k);
    if (vb === undefined) continue;
    const m = mergeStates(ex, c, va, vb);
    if (!m) refuse(at, "A variable holds values of different kinds after this branch.", "Assign values of one type to each variable on every path.");
    env.set(k, m === va || m === vb ? m : compactSym(ex, m));
  }
  return { pc, env };
}

/**
 * Paths that meet again (an iteration's end reached normally or by `continue`, a loop's exit
 * reached normally or by `break`): one state whose variables are `ite` over the paths' conditions
 * (the paths are disjoint) and whose condition is their disjunction.
 */
export function joinStates(ex: Exec, states: readonly (State | null)[], at: TS.Node): State | null {
  const live = states.filter((x): x is State => x !== null);
  if (live.length <= 1) return live[0] ?? null;
  const last = live[live.length - 1]!;
  const env = new Map<TS.Symbol, Sym>();
  for (const [k, v] of last.env) {
    let acc: Sym | undefined = v;
    for (const other of live.slice(0, -1).reverse()) {
      const ov = other.env.get(k);
      if (ov === undefined || acc === undefined) {
        acc = undefined;
        break;
      }
      const m = mergeStates(ex, other.pc, ov, acc);
      if (!m) refuse(at, "A variable holds values of different kinds where these paths meet.", "Assign values of one type to each variable on every path.");
      acc = m;
    }
    if (acc !== undefined) env.set(k, acc === v ? v : compactSym(ex, acc));
  }
  return { pc: rejoin(live.map((x) => x.pc)), env };
}

/**
 * Run two alternatives under `c` / `!c`, each on its own copy of the variables: calls in each
 * happen only on their branch, and so does a change either makes (`flag && out.push(x)`,
 * `x ?? (n = 1)`). Where they changed a variable differently, it is `ite(c, …)` afterwards.
 */
export function alternatives<A, B>(ex: Exec, st: State, c: string, a: (s: State) => A, b: (s: State) => B, at: TS.Node): [A, B] {
  compactPc(ex, st);
  const s1: State = { pc: and(st.pc, c), env: new Map(st.env) };
  const s2: State = { pc: and(st.pc, not(c)), env: new Map(st.env) };
  const v1 = a(s1);
  const v2 = b(s2);
  if (s1.pc !== and(st.pc, c) || s2.pc !== and(st.pc, not(c))) st.pc = or(s1.pc, s2.pc);
  for (const [k, x] of s1.env) {
    const y = s2.env.get(k);
    if (y === undefined) continue;
    if (x === y) {
      if (st.env.get(k) !== x) st.env.set(k, x);
      continue;
    }
    const m = merge(c, x, y);
    if (!m) refuse(at, "A variable holds values of different kinds after this expression.", "Assign values of one type to each variable on every path.");
    st.env.set(k, m === x || m === y ? m : compactSym(ex, m));
  }
  return [v1, v2];
}

/** Evaluate two alternatives under `c` / `!c` (calls and changes in each happen only on their branch). */
export function branchValues(ex: Exec, st: State, c: string, a: (s: State) => Sym, b: (s: State) => Sym, at: TS.Node): Sym {
  const [v1, v2] = alternatives(ex, st, c, a, b, at);
  const m = merge(c, v1, v2);
  if (!m) refuse(at, "The two alternatives have different kinds of values.", "Make both alternatives the same type.");
  return m === v1 || m === v2 ? m : compactSym(ex, m);
}

/** The value of a function body's flow: `ite` over its returns (undefined when it falls through). */
export function flowValue(flow: Flow, st: State, at: TS.Node): Sym {
  let value: Sym | undefined = flow.fall ? UNDEF : undefined;
  for (const r of [...flow.returns].reverse()) {
    if (value === undefined) value = r.value;
    else {
      const m = merge(r.pc, r.value, value);
      if (!m) refuse(at, "The function returns values of different kinds on different paths.", "Return values of one type on every path.");
      value = m;
    }
  }
  const exits = [...flow.returns.map((r) => r.pc), ...(flow.fall ? [flow.fall.pc] : [])];
  st.pc = exits.length === 0 ? "false" : exits.length === 1 ? exits[0]! : exits.includes(st.pc) ? st.pc : or(...exits);
  return value ?? UNDEF;
}

/** The jumps of a flow of the given kind that end at the statement carrying `labels`: those without a label and those naming one of them. */
export function jumpsOf(flow: Flow, kind: Jump["kind"], labels: ReadonlySet<string> = NO_LABELS): Jump[] {
  return (flow.jumps ?? []).filter((j) => j.kind === kind && (j.label === undefined || labels.has(j.label)));
}

/** The jumps that leave the statement carrying `labels` for an enclosing one: those naming another label. */
export function passedOn(flow: Flow, labels: ReadonlySet<string>): Jump[] {
  return (flow.jumps ?? []).filter((j) => j.label !== undefined && !labels.has(j.label));
}

/** Jumps that have no enclosing loop here (a function body) cannot be: TypeScript rejects them. */
export function noJumps(flow: Flow): void {
  const j = flow.jumps?.[0];
  if (j) refuse(j.node, `\`${j.kind}\` outside a loop is not modelled.`, "Use `break` and `continue` only inside loops.");
}
