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

/** Raw characters that must never reach a rendered value. */
const RAW_FORBIDDEN = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

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

  it("quoteString and escapeControls agree with JSON.parse", () => {
    fc.assert(
      fc.property(anyString, (s) => {
        expect(JSON.parse(quoteString(s))).toBe(s);
        expect(JSON.parse(escapeControls(JSON.stringify(s)))).toBe(s);
      }),
      { numRuns: 1000 },
    );
  });
});
