import ts from "typescript";
import { readLayer } from "../../core/layer/read";
import { RULES, type Rule } from "../../core/rules";
import { createProgram, stdlibFiles, typeErrors, unmark } from "../helpers/program";

const testable = Object.entries(RULES as Record<string, Rule>).filter(([, r]) => r.invalid.code !== r.valid.code);

function findingsOf(files: Record<string, string>) {
  const program = createProgram({ ...stdlibFiles(), ...files });
  return { program, result: readLayer(ts, program) };
}

describe.each(testable)("rule %s", (_name, rule) => {
  it(`accepts the valid example (${rule.id})`, () => {
    const { program, result } = findingsOf({ [rule.valid.file]: rule.valid.code });
    expect(result.findings.map((f) => `${RULES[f.rule].code} ${f.message}`)).toEqual([]);
    expect(typeErrors(program)).toEqual([]);
  });

  it(`reports the invalid example at its exact span (TS${rule.code})`, () => {
    const { text, span } = unmark(rule.invalid.code);
    expect(span).toBeDefined();
    const { result } = findingsOf({ [rule.invalid.file]: text });
    const mine = result.findings.filter((f) => f.file.fileName.endsWith(rule.invalid.file));
    expect(mine.map((f) => ({ code: RULES[f.rule].code, start: f.start, length: f.length, text: text.slice(f.start, f.start + f.length) }))).toEqual([
      { code: rule.code, start: span!.start, length: span!.length, text: text.slice(span!.start, span!.start + span!.length) },
    ]);
    // Every message says what to write instead.
    expect(mine[0]!.message).toMatch(/\b(Write|Declare|Add|Pass|Rename|Return|Call|Use|write|name it)\b/);
  });
});
