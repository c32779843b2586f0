import fc from "fast-check";
import type { LiteralValue } from "../../core/guarantees";
import type { ValueType } from "../../core/model";
import { escapeControls, numberText, parseTemplate, quoteString, renderTemplate, validateTemplate, type RenderArgument } from "../../core/template";

const T = {
  string: { kind: "string" },
  number: { kind: "number" },
  boolean: { kind: "boolean" },
  FilePath: { kind: "FilePath" },
  DirectoryPath: { kind: "DirectoryPath" },
} as const satisfies Record<string, ValueType>;
const arrayOf = (element: ValueType): ValueType => ({ kind: "array", element });

const str = (value: string): LiteralValue => ({ kind: "string", value });
const num = (value: number): LiteralValue => ({ kind: "number", value });
const bool = (value: boolean): LiteralValue => ({ kind: "boolean", value });
const fp = (value: string): LiteralValue => ({ kind: "FilePath", value });
const dp = (value: string): LiteralValue => ({ kind: "DirectoryPath", value });
const arr = (...items: LiteralValue[]): LiteralValue => ({ kind: "array", items });
const arg = (name: string, type: ValueType, value: LiteralValue): RenderArgument => ({ parameter: { name, type }, value });

const render = (template: string, ...args: RenderArgument[]) => renderTemplate(template, args);
const text = (template: string, ...args: RenderArgument[]): string => {
  const r = renderTemplate(template, args);
  if (!r.ok) throw new Error(r.reason);
  return r.text;
};

/** Raw characters that must never reach a rendered value (written out, not the renderer's own pattern). */
const RAW_FORBIDDEN = /[\u0000-\u001f\u007f-\u009f\u00a0\u00ad\u061c\u1680\u180e\u2000-\u200f\u2028-\u202f\u205f-\u206f\u3000\u3164\ufe00-\ufe0f\ufeff]/;

/**
 * Whether every character of a rendered text is visible: none in Cc, Cf, Cs, Zl, Zp, Zs (but the
 * ASCII space) or default-ignorable, and no combining mark first in a string or after an escape or
 * quote (it would sit on the renderer's syntax, not on a character of the value), and the text in
 * normal form C (else a canonically equivalent, different string would be shown alike).
 */
function allVisible(out: string): boolean {
  if (out.normalize("NFC") !== out) return false;
  if (/[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}]|(?! )\p{Zs}/u.test(out)) return false;
  return !/(?:^|["\\]|\\u[0-9a-f]{4})\p{M}/u.test(out);
}

describe("renderTemplate", () => {
  it("substitutes strings as JSON string literals", () => {
    expect(text("No tool reads under {prefix}.", arg("prefix", T.string, str("/secret")))).toBe('No tool reads under "/secret".');
  });

  it("escapes quotes, backslashes and control characters", () => {
    expect(text("{s}", arg("s", T.string, str('a"b\\c\n\t\r\u0000\u001b')))).toBe('"a\\"b\\\\c\\n\\t\\r\\u0000\\u001b"');
    expect(text("{s}", arg("s", T.string, str("\u007f\u0085\u009f")))).toBe('"\\u007f\\u0085\\u009f"');
    expect(text("{s}", arg("s", T.string, str("\u2028\u2029")))).toBe('"\\u2028\\u2029"');
    expect(text("{s}", arg("s", T.string, str("a\u202eb")))).toBe('"a\\u202eb"');
  });

  it("keeps other Unicode as it is", () => {
    expect(text("{s}", arg("s", T.string, str("é 日本 😀 ﬁ")))).toBe('"é 日本 😀 ﬁ"');
    // combining marks on a base character of the value stay as they are (Devanagari, Thai)
    expect(text("{s}", arg("s", T.string, str("हिन्दी ไทย")))).toBe('"हिन्दी ไทย"');
  });

  it("escapes format characters: zero-width, directional, soft hyphen, byte order mark, tags", () => {
    const cases: [string, string][] = [
      ["a\u200bb", "a\\u200bb"],
      ["a\u200c\u200db", "a\\u200c\\u200db"],
      ["\u200e\u200f", "\\u200e\\u200f"],
      ["\u202a\u202b\u202c\u202d\u202e", "\\u202a\\u202b\\u202c\\u202d\\u202e"],
      ["\u2066\u2067\u2068\u2069", "\\u2066\\u2067\\u2068\\u2069"],
      ["\u2060\u2061\u2062\u2063\u2064", "\\u2060\\u2061\\u2062\\u2063\\u2064"],
      ["\u061c\u00ad\ufeff", "\\u061c\\u00ad\\ufeff"],
      ["x\u{e0041}", "x\\udb40\\udc41"],
    ];
    for (const [value, escaped] of cases) expect(text("{s}", arg("s", T.string, str(value))), JSON.stringify(value)).toBe(`"${escaped}"`);
  });

  it("escapes every space but the ASCII space, and the line and paragraph separators", () => {
    expect(text("{s}", arg("s", T.string, str("a b")))).toBe('"a b"');
    const spaces = ["\u00a0", "\u1680", "\u2000", "\u2007", "\u200a", "\u202f", "\u205f", "\u3000", "\u2028", "\u2029"];
    for (const sp of spaces) {
      expect(text("{s}", arg("s", T.string, str(`a${sp}b`))), `U+${sp.charCodeAt(0).toString(16)}`).toBe(`"a\\u${sp.charCodeAt(0).toString(16).padStart(4, "0")}b"`);
    }
  });

  it("escapes default-ignorable characters: variation selectors, Hangul fillers", () => {
    expect(text("{s}", arg("s", T.string, str("a\ufe0f")))).toBe('"a\\ufe0f"');
    expect(text("{s}", arg("s", T.string, str("\u3164\u115f")))).toBe('"\\u3164\\u115f"');
  });

  it("escapes a combining mark that would sit on the quote or on an escape", () => {
    expect(text("{s}", arg("s", T.string, str("\u0301a")))).toBe('"\\u0301a"');
    expect(text("{s}", arg("s", T.string, str("\u20dd")))).toBe('"\\u20dd"');
    expect(text("{s}", arg("s", T.string, str("\u200b\u0301")))).toBe('"\\u200b\\u0301"');
    expect(text("{s}", arg("s", T.string, str('"\u0301')))).toBe('"\\"\\u0301"');
    expect(text("{s}", arg("s", T.string, str("\n\u0903")))).toBe('"\\n\\u0903"');
    expect(text("{xs}", arg("xs", arrayOf(T.string), arr(str("a"), str("\u0301"))))).toBe('["a", "\\u0301"]');
  });

  it("escapes every non-ASCII character of a string that is not in normal form C", () => {
    // "é" as e + U+0301 would look like the precomposed "é"; jamo would look like their syllable
    expect(text("{s}", arg("s", T.string, str("/café")))).toBe('"/café"');
    expect(text("{s}", arg("s", T.string, str("/cafe\u0301")))).toBe('"/cafe\\u0301"');
    expect(text("{s}", arg("s", T.string, str("\u1100\u1161 日本")))).toBe('"\\u1100\\u1161 \\u65e5\\u672c"');
    expect(text("{s}", arg("s", T.string, str("\uac00")))).toBe('"\uac00"');
  });

  it("distinguishes arguments that a raw rendering would show alike", () => {
    const lookalikes = ["/secrets", "/secrets\u200b", "/secret\u00ads", "\u202e/secrets", "/secrets\u00a0", "/secrets ", "/secrets\ufe0f", "/secrets\u0301", "/secret\u0301s"];
    const rendered = lookalikes.map((s) => text("{s}", arg("s", T.string, str(s))));
    expect(new Set(rendered).size).toBe(lookalikes.length);
    for (const r of rendered) expect(allVisible(r), r).toBe(true);
  });

  it("escapes lone surrogates so the sentence stays well-formed", () => {
    expect(text("{s}", arg("s", T.string, str("\ud800x")))).toBe('"\\ud800x"');
  });

  it("renders typed paths as quoted strings and arrays as JSON arrays", () => {
    expect(text("Only {files}.", arg("files", arrayOf(T.FilePath), arr(fp("test.md"))))).toBe('Only ["test.md"].');
    expect(text("{files}", arg("files", arrayOf(T.FilePath), arr(fp("a"), fp('b"c'))))).toBe('["a", "b\\"c"]');
    expect(text("{files}", arg("files", arrayOf(T.FilePath), arr()))).toBe("[]");
    expect(text("Inside {dir}.", arg("dir", T.DirectoryPath, dp("data")))).toBe('Inside "data".');
  });

  it("renders numbers like JSON, -0 as -0, and refuses NaN and the infinities", () => {
    expect(text("{n}", arg("n", T.number, num(3)))).toBe("3");
    expect(text("{n}", arg("n", T.number, num(-2.5)))).toBe("-2.5");
    expect(text("{n}", arg("n", T.number, num(1e21)))).toBe("1e+21");
    expect(text("{n}", arg("n", T.number, num(0.1)))).toBe("0.1");
    expect(text("{n}", arg("n", T.number, num(-0)))).toBe("-0");
    for (const bad of [NaN, Infinity, -Infinity]) {
      const r = render("{n}", arg("n", T.number, num(bad)));
      expect(r.ok).toBe(false);
      expect(!r.ok && r.reason).toMatch(/no JSON form/);
    }
    expect(text("{ns}", arg("ns", arrayOf(T.number), arr(num(1), num(2))))).toBe("[1, 2]");
    expect(render("{ns}", arg("ns", arrayOf(T.number), arr(num(1), num(Infinity)))).ok).toBe(false);
  });

  it("renders booleans", () => {
    expect(text("{b} and {c}", arg("b", T.boolean, bool(true)), arg("c", T.boolean, bool(false)))).toBe("true and false");
  });

  it("substitutes a parameter every time it appears, and never re-reads substituted text", () => {
    expect(text("{a}, again {a}", arg("a", T.string, str("x")))).toBe('"x", again "x"');
    expect(text("{a}{b}", arg("a", T.string, str("{b}")), arg("b", T.string, str("y")))).toBe('"{b}""y"');
  });

  it("keeps doubled braces as literal braces", () => {
    expect(text("{{literal}} {a}", arg("a", T.number, num(1)))).toBe("{literal} 1");
  });

  it("requires the declared type of each argument", () => {
    const cases: [ValueType, LiteralValue][] = [
      [T.number, str("3")],
      [T.string, num(3)],
      [T.boolean, str("true")],
      [T.FilePath, str("a.md")],
      [T.FilePath, dp("a")],
      [T.DirectoryPath, fp("a")],
      [arrayOf(T.FilePath), fp("a")],
      [arrayOf(T.FilePath), arr(fp("a"), str("b"))],
      [T.string, arr(str("a"))],
    ];
    for (const [type, value] of cases) {
      const r = render("{x}", arg("x", type, value));
      expect(r.ok, `${JSON.stringify(type)} ← ${JSON.stringify(value)}`).toBe(false);
    }
    // typed paths are strings: a `string` parameter accepts them
    expect(text("{x}", arg("x", T.string, fp("a.md")))).toBe('"a.md"');
  });

  it("refuses parameters of undescribable types", () => {
    expect(render("{x}", arg("x", { kind: "unsupported", text: "Map<string, number>" }, str("a"))).ok).toBe(false);
    expect(render("{x}", arg("x", arrayOf(arrayOf(T.string)), arr(arr(str("a"))))).ok).toBe(false);
  });

  it("refuses templates that do not name every parameter, or name something else", () => {
    const missing = render("nothing", arg("a", T.string, str("x")));
    expect(missing.ok).toBe(false);
    expect(!missing.ok && missing.reason).toMatch(/"a" does not appear/);
    const unknown = render("{b}", arg("a", T.string, str("x")));
    expect(unknown.ok).toBe(false);
    expect(!unknown.ok && unknown.reason).toMatch(/"\{b\}" is not a parameter/);
  });

  it("refuses attribute and index access, conversions and format specifications", () => {
    for (const t of ["{a.upper}", "{a[0]}", "{a!r}", "{a:>10}", "{a:.2f}", "{}", "{0}", "{a b}", "{a", "a}", "{{a}", "{a{b}}"]) {
      expect(render(t, arg("a", T.string, str("x"))).ok, t).toBe(false);
      expect(validateTemplate(t, [{ name: "a", type: T.string, typeText: "string", rest: false }]).length, t).toBeGreaterThan(0);
    }
  });
});

describe("renderer properties (fast-check)", () => {
  const anyString = fc.oneof(fc.string({ unit: "grapheme" }), fc.string({ unit: "binary" }), fc.string({ unit: fc.integer({ min: 0, max: 0x2070 }).map((c) => String.fromCharCode(c)) }));

  it("any string argument yields a JSON string literal that parses back to the argument", () => {
    fc.assert(
      fc.property(anyString, fc.constantFrom<ValueType>(T.string, T.FilePath, T.DirectoryPath), (s, type) => {
        const value: LiteralValue = type.kind === "string" ? str(s) : { kind: type.kind as "FilePath" | "DirectoryPath", value: s };
        const out = text("<{x}>", arg("x", type, value));
        const literal = out.slice(1, -1);
        expect(literal.startsWith('"') && literal.endsWith('"')).toBe(true);
        expect(JSON.parse(literal)).toBe(s);
      }),
      { numRuns: 2000 },
    );
  });

  it("control characters never appear raw", () => {
    fc.assert(
      fc.property(fc.array(anyString, { maxLength: 4 }), (items) => {
        const out = text("{x}", arg("x", arrayOf(T.string), arr(...items.map(str))));
        expect(RAW_FORBIDDEN.test(out)).toBe(false);
        expect(JSON.parse(out)).toEqual(items);
      }),
      { numRuns: 1000 },
    );
  });

  it("arrays of any describable element type are JSON arrays that parse back", () => {
    fc.assert(
      fc.property(fc.array(fc.double({ noNaN: true, noDefaultInfinity: true }), { maxLength: 6 }), fc.array(fc.boolean(), { maxLength: 6 }), (ns, bs) => {
        const parsedNs = JSON.parse(text("{x}", arg("x", arrayOf(T.number), arr(...ns.map(num))))) as number[];
        parsedNs.forEach((n, i) => expect(Object.is(n, ns[i])).toBe(true));
        expect(JSON.parse(text("{x}", arg("x", arrayOf(T.boolean), arr(...bs.map(bool)))))).toEqual(bs);
      }),
      { numRuns: 500 },
    );
  });

  it("finite numbers render as JSON that parses back to the same number (-0 included)", () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (n) => {
        const out = numberText(n)!;
        expect(Object.is(JSON.parse(out), n)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it("unsupported template syntax is always refused", () => {
    const ident = fc.stringMatching(/^[a-z_][a-z0-9_]{0,6}$/);
    const unsupported = fc.oneof(
      fc.tuple(ident, ident).map(([a, b]) => `{${a}.${b}}`),
      fc.tuple(ident, fc.nat(99)).map(([a, i]) => `{${a}[${i}]}`),
      fc.tuple(ident, ident).map(([a, k]) => `{${a}[${k}]}`),
      fc.tuple(ident, fc.constantFrom("r", "s", "a")).map(([a, c]) => `{${a}!${c}}`),
      fc.tuple(ident, fc.constantFrom(">10", ".2f", "^5", "d", "", "x")).map(([a, f]) => `{${a}:${f}}`),
      fc.nat(9).map((i) => `{${i}}`),
      fc.constant("{}"),
      fc.tuple(ident, fc.constantFrom("+1", " ", "()", "-x", "*2")).map(([a, e]) => `{${a}${e}}`),
      ident.map((a) => `{${a}`),
      ident.map((a) => `${a}}`),
    );
    fc.assert(
      fc.property(fc.string(), unsupported, fc.string(), ident, (before, bad, after, name) => {
        const template = `${before.replace(/[{}]/g, "")}${bad}${after.replace(/[{}]/g, "")} {${name}}`;
        expect(() => parseTemplate(template)).toThrow();
        expect(validateTemplate(template, [{ name, type: T.string, typeText: "string", rest: false }]).length).toBeGreaterThan(0);
        expect(renderTemplate(template, [arg(name, T.string, str("v"))]).ok).toBe(false);
      }),
      { numRuns: 1000 },
    );
  });

  /** Strings drawn mostly from characters that render invisibly or combine, next to a few visible ones. */
  const confusable = fc.string({
    unit: fc.oneof(
      fc.constantFrom("a", "e", "/", " ", '"', "\\", "é", "가", "\u1100", "\u1161", "😀"),
      fc.constantFrom("\u0000", "\u0085", "\u00a0", "\u00ad", "\u034f", "\u061c", "\u115f", "\u1680", "\u180e", "\u2007", "\u200b", "\u200c", "\u200d", "\u200e", "\u200f", "\u2028", "\u2029", "\u202a", "\u202e", "\u202f", "\u2060", "\u2066", "\u2069", "\u3000", "\u3164", "\ufe0f", "\ufeff", "\u{e0041}", "\u{e0100}"),
      fc.constantFrom("\u0301", "\u0323", "\u0903", "\u20dd", "\u093f"),
      fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)),
      fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)),
    ),
    maxLength: 8,
  });

  it("renders only visible characters, and different strings differently", () => {
    fc.assert(
      fc.property(fc.oneof(anyString, confusable), fc.oneof(anyString, confusable), (a, b) => {
        const ra = text("{x}", arg("x", T.string, str(a)));
        const rb = text("{x}", arg("x", T.string, str(b)));
        expect(allVisible(ra), ra).toBe(true);
        expect(JSON.parse(ra)).toBe(a);
        if (a !== b) expect(ra).not.toBe(rb);
      }),
      { numRuns: 3000 },
    );
  });

  it("renders arrays of strings with only visible characters, injectively", () => {
    fc.assert(
      fc.property(fc.array(confusable, { maxLength: 4 }), fc.array(confusable, { maxLength: 4 }), (xs, ys) => {
        const rx = text("{x}", arg("x", arrayOf(T.FilePath), arr(...xs.map(fp))));
        const ry = text("{x}", arg("x", arrayOf(T.FilePath), arr(...ys.map(fp))));
        expect(allVisible(rx), rx).toBe(true);
        expect(JSON.parse(rx)).toEqual(xs);
        if (JSON.stringify(xs) !== JSON.stringify(ys)) expect(rx).not.toBe(ry);
      }),
      { numRuns: 1000 },
    );
  });

  it("quoteString and escapeControls agree with JSON.parse", () => {
    fc.assert(
      fc.property(fc.oneof(anyString, confusable), (s) => {
        expect(JSON.parse(quoteString(s))).toBe(s);
        expect(JSON.parse(escapeControls(JSON.stringify(s)))).toBe(s);
      }),
      { numRuns: 1000 },
    );
  });
});
