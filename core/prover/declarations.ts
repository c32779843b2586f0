/**
 * A query's declarations indexed by the symbol each one declares, so that reading values out of a
 * model (z3.ts `GetValues`) sends Z3 only the declarations the read terms need. Every read is
 * parsed with its declarations: the query for everything a program keeps (at-once.ts) declares
 * 20–60 KB, and a counterexample is read in four to six rounds.
 */
import { endOfQuoted } from "./sexpr";

/** One top-level command of the declarations: its text, the symbol it declares, and the symbols it mentions. */
interface Command {
  readonly text: string;
  readonly declares: string | undefined;
  readonly mentions: readonly string[];
}

export class DeclarationIndex {
  private readonly commands: readonly Command[];
  private readonly byName = new Map<string, number>();

  constructor(text: string) {
    this.commands = topLevel(text);
    this.commands.forEach((c, i) => {
      if (c.declares !== undefined) this.byName.set(c.declares, i);
    });
  }

  /**
   * The declarations that `roots` (terms and later declarations) mention, with those they mention
   * in turn, in their original order. A command that declares nothing is always kept.
   */
  needed(roots: readonly string[]): string {
    const keep = new Set<number>();
    const visit = (symbols: readonly string[]): void => {
      for (const s of symbols) {
        const i = this.byName.get(s);
        if (i === undefined || keep.has(i)) continue;
        keep.add(i);
        visit(this.commands[i]!.mentions);
      }
    };
    for (const root of roots) visit(symbolsIn(root));
    return this.commands.filter((c, i) => c.declares === undefined || keep.has(i)).map((c) => c.text).join("\n");
  }
}

const DECLARING = new Set(["declare-const", "declare-fun", "define-fun"]);

/** The top-level commands of SMT-LIB text (string literals and quoted symbols may hold parentheses). */
function topLevel(text: string): Command[] {
  const out: Command[] = [];
  let depth = 0;
  let start = -1;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 34 /* " */ || ch === 124 /* | */) i = endOfQuoted(text, i) - 1;
    else if (ch === 40 /* ( */) {
      if (depth++ === 0) start = i;
    } else if (ch === 41 /* ) */ && depth > 0 && --depth === 0) {
      const command = text.slice(start, i + 1);
      const symbols = symbolsIn(command);
      // `(declare-fun name …)`: the first symbol is the command, the second what it declares.
      const declares = DECLARING.has(symbols[0] ?? "") ? symbols[1] : undefined;
      out.push({ text: command, declares, mentions: symbols.slice(2) });
    }
  }
  // Text outside any command (none in the queries clauz3 builds) is kept as it is.
  if (depth !== 0) out.push({ text: text.slice(start), declares: undefined, mentions: [] });
  return out;
}

/** The symbols a text mentions, in order (string literals and numerals are not symbols). */
function symbolsIn(text: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; ) {
    const ch = text.charCodeAt(i);
    if (ch === 34 /* " */) i = endOfQuoted(text, i);
    else if (ch === 124 /* | */) {
      const end = endOfQuoted(text, i);
      out.push(text.slice(i, end));
      i = end;
    } else if (ch === 40 || ch === 41 || ch === 32 || (ch >= 9 && ch <= 13)) i++;
    else {
      let j = i + 1;
      for (; j < text.length; j++) {
        const c = text.charCodeAt(j);
        if (c === 40 || c === 41 || c === 34 || c === 32 || (c >= 9 && c <= 13)) break;
      }
      out.push(text.slice(i, j));
      i = j;
    }
  }
  return out;
}
