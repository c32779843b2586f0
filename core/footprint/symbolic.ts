/**
 * Footprints in the solver's terms: a tool's selectors resolved against a call's symbolic
 * arguments (the prover's `Sym`s), and the SMT condition under which two calls conflict, with the
 * run-time rules of runtime/footprint.ts (docs/footprints.md).
 *
 * A path is compared in its canonical form: absolute against the working directory (an unknown
 * constant, {@link CWD}), `.`/`..`, repeated and trailing separators removed. A literal path is
 * canonicalised here exactly; a computed one only when it is already canonical (no `.` or `..`
 * segment, no `//`, no trailing `/`, not empty). Where the form cannot be expressed exactly, the
 * pair fails closed: it may conflict. Symbolic links are not modelled (the solver cannot see the
 * file system): two different canonical names are two resources, and the run-time scheduler, which
 * resolves links, orders the calls anyway.
 */
import * as nodePath from "node:path";
import type { FootprintSpec } from "../../runtime/footprint";
import { and, not, or, strLit } from "../prover/smt";
import { sameValueZero, type Sym } from "../prover/values";

/** The working directory, ending in `/`: the prefix of every relative path's canonical form. */
export const CWD = "cwd!";

/** What the solver may assume of {@link CWD}: an absolute canonical directory, written with a trailing `/`. */
export const CWD_DECLARATIONS = [`(declare-const ${CWD} String)`];
export const CWD_ASSUMPTIONS = [
  `(str.prefixof "/" ${CWD})`,
  `(str.suffixof "/" ${CWD})`,
  `(not (str.contains ${CWD} "//"))`,
  `(not (str.contains ${CWD} "/./"))`,
  `(not (str.contains ${CWD} "/../"))`,
  `(not (str.contains ${CWD} ${strLit("\\")}))`,
];

/** A path in canonical form: `exact` (a Bool term) says when `canon` is its canonical form. */
interface PathTerm {
  readonly exact: string;
  readonly canon: string;
  /** `canon` followed by `/`: what every path beneath it starts with. */
  readonly below: string;
  /** The canonical text, when it is known here. */
  readonly literal?: string;
}

/** A resource one call touches, in terms. */
export type SymResource =
  | { readonly kind: "path"; readonly path: PathTerm; readonly tree: boolean }
  | { readonly kind: "manifest"; readonly path: PathTerm }
  | { readonly kind: "key"; readonly family: string; readonly parts: readonly Sym[] }
  | { readonly kind: "rate" };

/** A call's footprint in terms, or opaque. */
export type SymFootprint = { readonly reads: readonly SymResource[]; readonly writes: readonly SymResource[] } | "opaque";

/** Lexically canonical form of a literal path; undefined when it leaves the working directory or names it. */
function canonicalText(path: string): { absolute: boolean; text: string } | undefined {
  if (path.length === 0 || path.includes("\\") || path.includes("\0")) return undefined;
  const normal = nodePath.posix.normalize(path);
  const absolute = normal.startsWith("/");
  const text = normal.length > 1 && normal.endsWith("/") ? normal.slice(0, -1) : normal;
  if (!absolute && (text === "." || text === ".." || text.startsWith("../"))) return undefined;
  return { absolute, text };
}

/** The canonical path of a string argument. */
function pathTerm(v: Sym): PathTerm | undefined {
  if (v.k !== "str") return undefined;
  if (v.c !== undefined) {
    const c = canonicalText(v.c);
    if (!c) return { exact: "false", canon: strLit(""), below: strLit("/") };
    if (c.absolute) return { exact: "true", canon: strLit(c.text), below: strLit(c.text === "/" ? "/" : `${c.text}/`), literal: c.text };
    const canon = `(str.++ ${CWD} ${strLit(c.text)})`;
    return { exact: "true", canon, below: `(str.++ ${canon} "/")` };
  }
  const t = v.t;
  const lacks = (s: string) => `(not (str.contains ${t} ${strLit(s)}))`;
  const exact = and(
    `(< 0 (str.len ${t}))`,
    lacks("//"), lacks("/./"), lacks("/../"), lacks("\\"),
    `(not (str.suffixof "/" ${t}))`, `(not (str.suffixof "/." ${t}))`, `(not (str.suffixof "/.." ${t}))`,
    `(not (str.prefixof "./" ${t}))`, `(not (str.prefixof "../" ${t}))`,
    `(not (= ${t} "."))`, `(not (= ${t} ".."))`,
  );
  const canon = `(ite (str.prefixof "/" ${t}) ${t} (str.++ ${CWD} ${t}))`;
  return { exact, canon, below: `(str.++ ${canon} "/")` };
}

/** Resolve a tool's footprint against a call's arguments (by parameter name), as resolveFootprint does at run time. */
export function symbolicFootprint(spec: FootprintSpec, args: ReadonlyMap<string, Sym>): SymFootprint {
  const reads: SymResource[] = [];
  const writes: SymResource[] = [];
  const add = (r: SymResource, access: "read" | "write"): void => {
    reads.push(r);
    if (access === "write") writes.push(r);
  };
  const scalar = (v: Sym | undefined): boolean => v !== undefined && (v.k === "str" || v.k === "num" || v.k === "bool" || (v.k === "arr" && v.items.every((x) => x.k === "str" || x.k === "num" || x.k === "bool")));
  for (const s of spec.selectors) {
    switch (s.kind) {
      case "literal":
        add({ kind: "key", family: "literal", parts: [{ k: "str", t: strLit(s.resource), c: s.resource }] }, s.access);
        break;
      case "path":
      case "manifest": {
        const p = args.get(s.field);
        const path = p ? pathTerm(p) : undefined;
        if (!path) return "opaque";
        add(s.kind === "path" ? { kind: "path", path, tree: s.tree === true } : { kind: "manifest", path }, s.access);
        break;
      }
      case "scoped": {
        const v = args.get(s.field);
        if (!scalar(v)) return "opaque";
        add({ kind: "key", family: `scoped:${JSON.stringify(s.family)}`, parts: [v!] }, s.access);
        break;
      }
      case "event": {
        const parts = s.fields.map((f) => args.get(f));
        if (!parts.every(scalar)) return "opaque";
        add({ kind: "key", family: `event:${JSON.stringify(s.event)}`, parts: parts as Sym[] }, s.access);
        break;
      }
      case "rateLimit":
        add({ kind: "rate" }, "read");
        break;
      default:
        return "opaque";
    }
  }
  return { reads, writes };
}

/** Fresh constants an overlap term needs (existentials of a satisfiability query). */
export interface Fresh {
  (sort: string): string;
}

/** Two scalar key parts name one resource (the run-time key: JSON text, NaN equal to NaN, -0 to 0). */
function sameKey(a: Sym, b: Sym): string {
  if (a.k === "arr" || b.k === "arr") {
    if (a.k !== "arr" || b.k !== "arr") return "false";
    if (a.items.length !== b.items.length) return "false";
    return and(...a.items.map((x, i) => sameKey(x, b.items[i]!)));
  }
  return sameValueZero(a, b) ?? "true";
}

/**
 * Which conflicts a term asks for: `exact`, two resources that are one (paths whose canonical
 * forms are known, keys, opaque); `inexact`, a path whose canonical form cannot be expressed (the
 * pair fails closed).
 */
export type ConflictMode = "exact" | "inexact";

/** Whether two resources may be the same state, for some values of the terms. */
function overlap(a: SymResource, b: SymResource, fresh: Fresh, mode: ConflictMode): string {
  if (a.kind === "rate" || b.kind === "rate") return "false";
  if (a.kind === "key" || b.kind === "key") {
    if (mode === "inexact" || a.kind !== "key" || b.kind !== "key" || a.family !== b.family || a.parts.length !== b.parts.length) return "false";
    return and(...a.parts.map((p, i) => sameKey(p, b.parts[i]!)));
  }
  if (a.kind !== b.kind) return "false";
  if (mode === "inexact") return or(not(a.path.exact), not(b.path.exact));
  const exact = and(a.path.exact, b.path.exact);
  if (a.kind === "manifest" && b.kind === "manifest") {
    // One directory: P = D/x and Q = D/y with no `/` in x or y (dirname of the root is not modelled).
    if (a.path.literal === "/" || b.path.literal === "/") return exact;
    const d = fresh("String"), x = fresh("String"), y = fresh("String");
    return and(exact, `(= ${a.path.canon} (str.++ ${d} "/" ${x}))`, `(= ${b.path.canon} (str.++ ${d} "/" ${y}))`, `(not (str.contains ${x} "/"))`, `(not (str.contains ${y} "/"))`);
  }
  if (a.kind !== "path" || b.kind !== "path") return "false";
  return and(
    exact,
    or(
      `(= ${a.path.canon} ${b.path.canon})`,
      a.tree ? `(str.prefixof ${a.path.below} ${b.path.canon})` : "false",
      b.tree ? `(str.prefixof ${b.path.below} ${a.path.canon})` : "false",
    ),
  );
}

/**
 * When two calls conflict: one writes what the other reads or writes; opaque conflicts with
 * everything. The two modes together cover every conflict (exact first, for a telling witness).
 */
export function conflictTerm(a: SymFootprint, b: SymFootprint, fresh: Fresh, mode: ConflictMode): string {
  if (a === "opaque" || b === "opaque") return mode === "exact" ? "true" : "false";
  const terms: string[] = [];
  for (const w of a.writes) for (const r of b.reads) terms.push(overlap(w, r, fresh, mode));
  for (const w of b.writes) for (const r of a.reads) terms.push(overlap(w, r, fresh, mode));
  return or(...terms);
}
