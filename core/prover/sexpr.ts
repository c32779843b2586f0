/** A parsed S-expression from Z3's output. */
export type SExpr = string | SExpr[];

export const isList = (e: SExpr | undefined): e is SExpr[] => Array.isArray(e);
/** A string literal (`"…"`), as the parser keeps it: quotes included. */
export const isStringLiteral = (e: SExpr): e is string => typeof e === "string" && e.startsWith('"');

/** Whether a character code is whitespace as `/\s/` has it (ASCII answered without the regular expression). */
function isSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13) || (c >= 128 && /\s/.test(String.fromCharCode(c)));
}

const OPEN = 40; // (
const CLOSE = 41; // )
const QUOTE = 34; // "
const BAR = 124; // |
const SEMICOLON = 59; // ;

/**
 * Where the string literal (`"…"`, with `""` for a quote inside) or quoted symbol (`|…|`) that
 * starts at `i` ends: the index just past its closing character, or the text's end when it is
 * left open. Every reader of SMT-LIB text here skips them with this, since either may hold
 * parentheses, quotes and what looks like a symbol.
 */
export function endOfQuoted(text: string, i: number): number {
  if (text.charCodeAt(i) === BAR) {
    const close = text.indexOf("|", i + 1);
    return close < 0 ? text.length : close + 1;
  }
  for (let j = i + 1; j < text.length; j++) {
    if (text.charCodeAt(j) !== QUOTE) continue;
    if (text.charCodeAt(j + 1) !== QUOTE) return j + 1;
    j++; // "" is an escaped quote
  }
  return text.length;
}

/**
 * Parse Z3's text output (one or more S-expressions and atoms, strings kept with their quotes).
 * Queries are parsed with it too (tactics.ts), some of them 60 KB: it reads character codes, not
 * one-character strings.
 */
export function parseSExprs(text: string): SExpr[] {
  const out: SExpr[] = [];
  const stack: SExpr[][] = [out];
  let top = out;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const ch = text.charCodeAt(i);
    if (isSpace(ch)) { i++; continue; }
    // A comment runs to the end of its line, as Z3 reads it (outside literals and quoted symbols).
    if (ch === SEMICOLON) { const end = text.indexOf("\n", i); i = end < 0 ? n : end; continue; }
    if (ch === OPEN) { const l: SExpr[] = []; top.push(l); stack.push(l); top = l; i++; continue; }
    // A `)` too many leaves no list to add to: the next item throws (parseCommands checks the balance first).
    if (ch === CLOSE) { stack.pop(); top = stack[stack.length - 1] as SExpr[]; i++; continue; }
    if (ch === QUOTE || ch === BAR) {
      // A string literal or quoted symbol is one atom; one left open runs to the end of the text.
      const end = endOfQuoted(text, i);
      top.push(text.slice(i, end));
      i = end;
      continue;
    }
    let j = i;
    for (; j < n; j++) {
      const c = text.charCodeAt(j);
      if (c === OPEN || c === CLOSE || c === QUOTE || c === SEMICOLON || isSpace(c)) break;
    }
    top.push(text.slice(i, j));
    i = j;
  }
  return out;
}

export function printSExpr(e: SExpr): string {
  return Array.isArray(e) ? `(${e.map(printSExpr).join(" ")})` : e;
}

export function decodeString(lit: string): string {
  const body = lit.slice(1, -1).replace(/""/g, '"');
  let out = "";
  for (let i = 0; i < body.length; i++) {
    if (body[i] === "\\" && body[i + 1] === "u") {
      const m = /^\\u\{([0-9a-fA-F]+)\}|^\\u([0-9a-fA-F]{4})/.exec(body.slice(i));
      if (m) {
        const code = parseInt(m[1] ?? m[2]!, 16);
        out += code <= 0xffff ? String.fromCharCode(code) : String.fromCodePoint(code);
        i += m[0].length - 1;
        continue;
      }
    }
    out += body[i];
  }
  return out;
}

/**
 * A string literal's characters (UTF-16 units) as Z3 reads the query's text under `:encoding bmp`,
 * when every one is certain; undefined otherwise. Certain: printable ASCII written as itself (a
 * quote written twice is one), and `\u{d}`…`\u{ddddd}` (one to five hex digits) or `\udddd` of at
 * most 0xFFFF, one character each. Uncertain: any other raw character (Z3 gets the text as UTF-8
 * and reads a non-ASCII character as one character per byte), a `\u` form with more digits or a
 * larger value (Z3 reads it as its text), any other backslash (read either way across versions).
 * clauz3 writes every literal so (smt.ts `strLit`); the reformulations and the ranges read only
 * literals this reads, since they restate or bound what Z3 will read.
 */
export function readLiteral(lit: string): string | undefined {
  const body = lit.slice(1, -1).replace(/""/g, '"');
  let out = "";
  for (let i = 0; i < body.length; i++) {
    const c = body.charCodeAt(i);
    if (c === 0x5c /* \ */) {
      const m = /^\\u\{([0-9a-fA-F]{1,5})\}|^\\u([0-9a-fA-F]{4})/.exec(body.slice(i, i + 9));
      const code = m ? parseInt(m[1] ?? m[2]!, 16) : undefined;
      if (code === undefined || code > 0xffff) return undefined;
      out += String.fromCharCode(code);
      i += m![0].length - 1;
    } else if (c >= 0x20 && c < 0x7f) out += body[i];
    else return undefined;
  }
  return out;
}

/** Decode a bit-vector literal (#b… or #x…) to a BigInt. */
export function decodeBits(atom: string): bigint {
  if (atom.startsWith("#b")) return BigInt(`0b${atom.slice(2)}`);
  if (atom.startsWith("#x")) return BigInt(`0x${atom.slice(2)}`);
  throw new Error(`not a bit-vector literal: ${atom}`);
}

/** Decode an Int value: `5` or `(- 5)`. */
export function decodeInt(e: SExpr): number {
  if (typeof e === "string") return Number(e);
  if (e[0] === "-" && e.length === 2) return -decodeInt(e[1]!);
  throw new Error(`not an Int value: ${JSON.stringify(e)}`);
}

/**
 * Decode a Float64 model value: `(fp #b<sign> #b<exponent> #b|#x<significand>)` or one of the
 * special values `(_ NaN 11 53)`, `(_ ±oo 11 53)`, `(_ ±zero 11 53)`. (`fp.to_ieee_bv` is not used:
 * its value for NaN is unspecified.)
 */
export function decodeFloat(e: SExpr): number {
  if (Array.isArray(e) && e[0] === "_") {
    switch (e[1]) {
      case "NaN": return NaN;
      case "+oo": return Infinity;
      case "-oo": return -Infinity;
      case "+zero": return 0;
      case "-zero": return -0;
    }
  }
  if (Array.isArray(e) && e[0] === "fp" && e.length === 4) {
    const bitsOf = (atom: SExpr, width: number): string => {
      const a = String(atom);
      return (a.startsWith("#x") ? BigInt(`0x${a.slice(2)}`).toString(2) : a.slice(2)).padStart(width, "0");
    };
    const bits = bitsOf(e[1]!, 1) + bitsOf(e[2]!, 11) + bitsOf(e[3]!, 52);
    const view = new DataView(new ArrayBuffer(8));
    view.setBigUint64(0, BigInt(`0b${bits}`));
    return view.getFloat64(0);
  }
  throw new Error(`not a Float64 value: ${JSON.stringify(e)}`);
}
