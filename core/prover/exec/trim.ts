/**
 * `trim`, `trimStart` and `trimEnd` of a string the prover does not know: the split of the string
 * into the whitespace the method removes and what it keeps, and what the kept part contains.
 */
import type * as TS from "typescript";
import { and, not, or, strLit } from "../smt";
import { runtimeModuleOf } from "../../runtime-symbols";
import type { Sym } from "../values";
import type { Exec } from "./context";
import { freshValue } from "./fresh";

/**
 * The code units `String.prototype.trim` removes (WhiteSpace and LineTerminator of ECMA-262: the
 * ASCII ones, U+00A0, U+FEFF and the Zs category), as ranges; computed with Node over the BMP and
 * checked again by test/strings/strings.test.ts.
 */
export const TRIM_RANGES: readonly (readonly [number, number])[] = [[0x9, 0xd], [0x20, 0x20], [0xa0, 0xa0], [0x1680, 0x1680], [0x2000, 0x200a], [0x2028, 0x2029], [0x202f, 0x202f], [0x205f, 0x205f], [0x3000, 0x3000], [0xfeff, 0xfeff]];

const WS_RE = `(re.union ${TRIM_RANGES.map(([lo, hi]) => `(re.range ${strLit(String.fromCharCode(lo))} ${strLit(String.fromCharCode(hi))})`).join(" ")})`;
const isWs = (ch: string): string => `(str.in_re ${ch} ${WS_RE})`;
const isWsUnit = (code: number): boolean => TRIM_RANGES.some(([lo, hi]) => code >= lo && code <= hi);

/**
 * `s.trim()` of an unknown string: the unique split `s = lead ++ r ++ end` with `lead` and `end`
 * made of trimmed code units and `r` empty or starting (trimEnd: ending) with another one. The
 * parts are fresh strings over the loop indices in scope; the split holds in every run.
 *
 * The split is a function of `s`: the same string trimmed again under the same loop indices (a
 * `note.trim()` in the body of an unrolled loop) reuses its parts while the assumption that
 * defines them still stands. Ten copies of one split took one query 10.5 million resource units.
 *
 * What the split implies about the texts the program and its layer search for is stated with it
 * (`keptLiterals`): over an array of unknown length the solver could not derive it in 90 s (h57
 * i32: every address contains "@", so every trimmed one does).
 */
export function trimmed(ex: Exec, s: Extract<Sym, { k: "str" }>, name: string, at: TS.Node): Sym {
  const key = `${name} ${ex.loops.join(" ")} ${s.t}`;
  const known = ex.trims.get(key);
  // A scope that folded its assumptions into a term of its own (a callback's, arrays.ts) took
  // the definition with it: the parts are then unconstrained here, and a new split is made.
  if (known && ex.world.assumptions.includes(known.defined)) return { k: "str", t: known.r };
  const part = (role: string): string => {
    const v = freshValue(ex, `${name}.${role}`, { kind: "string" }, at);
    if (v.k !== "str") throw new Error("a fresh string is a string");
    return v.t;
  };
  const r = part("r");
  const lead = name === "trimEnd" ? strLit("") : part("lead");
  const end = name === "trimStart" ? strLit("") : part("end");
  const first = `(str.at ${r} 0)`;
  const last = `(str.at ${r} (- (str.len ${r}) 1))`;
  const keeps = name === "trim" ? and(not(isWs(first)), not(isWs(last))) : name === "trimStart" ? not(isWs(first)) : not(isWs(last));
  const facts = [
    `(= ${s.t} (str.++ ${lead} ${r} ${end}))`,
    `(str.in_re ${lead} (re.* ${WS_RE}))`,
    `(str.in_re ${end} (re.* ${WS_RE}))`,
    or(`(= ${r} "")`, keeps),
    ...keptLiterals(ex, s.t, r),
  ];
  const defined = { term: and(...facts), loops: [...ex.loops] };
  ex.world.assumptions.push(defined);
  ex.trims.set(key, { r, defined });
  return { k: "str", t: r };
}

/**
 * A consequence of the split for each searched text `L` that starts and ends with a code unit no
 * trim removes: an occurrence of `L` in `s` can then overlap neither `lead` nor `end`, so it lies
 * in `r` (`s` contains `L` only if `r` does).
 *
 * Only that direction, and only `contains`: the solver derives the other direction from the
 * concatenation, and each further fact slowed queries that do not need it. With the equivalence and
 * the same implications for prefixes and suffixes, ops/announce_recipients_untrimmed_fail went from
 * 4.6 s to the 90 s budget (its precondition refused) and h57 i32 pass was refused again; with this
 * one fact, 14 s and 17 s (proved).
 */
function keptLiterals(ex: Exec, s: string, r: string): string[] {
  return searchedLiterals(ex).map((l) => `(=> (str.contains ${s} ${strLit(l)}) (str.contains ${r} ${strLit(l)}))`);
}

/** Searched texts kept per program (the facts grow with each; most programs search for a few). */
const SEARCHED_LIMIT = 12;
const SEARCHED_LENGTH_LIMIT = 64;
/** Modules followed from the program's file through its imports. */
const MODULE_LIMIT = 64;
const SEARCH_METHODS = new Set(["includes", "startsWith", "endsWith", "indexOf", "lastIndexOf"]);

const searchedByFile = new WeakMap<TS.SourceFile, readonly string[]>();

/**
 * The literal texts that the program's file and the modules it imports (its layer's tools and
 * contracts; not clauz3's runtime) pass to `includes`, `startsWith`, `endsWith`, `indexOf` and `lastIndexOf`, when they
 * start and end with a code unit no trim removes: the texts a query may look for in a trimmed
 * string. The program's own first, then its imports' in the order they are reached.
 */
function searchedLiterals(ex: Exec): readonly string[] {
  const main = ex.mainFile;
  if (!main) return [];
  const cached = searchedByFile.get(main);
  if (cached) return cached;
  const ts = ex.ts;
  const found = new Set<string>();
  const files: TS.SourceFile[] = [main];
  const seen = new Set<TS.SourceFile>(files);
  const visit = (node: TS.Node): void => {
    if (found.size >= SEARCHED_LIMIT) return;
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && SEARCH_METHODS.has(node.expression.name.text)) {
      const arg = node.arguments[0];
      if (arg && (ts.isStringLiteral(arg) || ts.isNoSubstitutionTemplateLiteral(arg))) {
        const l = arg.text;
        if (l.length > 0 && l.length <= SEARCHED_LENGTH_LIMIT && !isWsUnit(l.charCodeAt(0)) && !isWsUnit(l.charCodeAt(l.length - 1))) found.add(l);
      }
    }
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      const decl = ex.checker.getSymbolAtLocation(node.moduleSpecifier)?.valueDeclaration;
      // clauz3's own runtime (what layers import `trusted` and `Event` from) searches for texts of its own.
      if (decl && ts.isSourceFile(decl) && !decl.isDeclarationFile && !ex.program.isSourceFileFromExternalLibrary(decl) && !runtimeModuleOf(decl.fileName) && !seen.has(decl) && seen.size < MODULE_LIMIT) {
        seen.add(decl);
        files.push(decl);
      }
    }
    ts.forEachChild(node, visit);
  };
  for (let i = 0; i < files.length && found.size < SEARCHED_LIMIT; i++) visit(files[i]!);
  const literals = [...found];
  searchedByFile.set(main, literals);
  return literals;
}
