/**
 * The layer rules on tools of one object of named arguments (issue 10): the object's properties are
 * the tool's named parameters (no optional, accessor, method or unmodelled property: 93024), its
 * builder and predicates take the object in one parameter (93025), and the rules of positional
 * parameters apply to them (unknown names 93004, literal or computed event fields 93003, types 93006).
 */
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { readLayer } from "../../core/layer/read";
import { RULES } from "../../core/rules";
import { createProgram, stdlibFiles, unmark } from "../helpers/program";

const HEAD = `import { trusted, requires, ensures } from "clauz3";
import { Event, performs } from "clauz3/events";
export class SendEmail extends Event { constructor(readonly to: string, readonly subject: string) { super(); } }
export class Pay extends Event { constructor(readonly account: string, readonly amount: number) { super(); } }
`;
const FILE = "tools/mail/trusted/layer.ts";

function read(body: string) {
  const program = createProgram({ ...stdlibFiles(), [FILE]: HEAD + body });
  const layer = readLayer(ts, program);
  const mine = layer.findings.filter((f) => f.file.fileName.endsWith(FILE));
  return { layer, findings: mine.map((f) => ({ code: RULES[f.rule].code, text: f.file.text.slice(f.start, f.start + f.length), message: f.message })) };
}

/** Each invalid case: one finding, its code and the exact text its span covers (⟦…⟧). */
const invalid: { name: string; code: number; body: string }[] = [
  { name: "an optional property", code: 93024, body: `export const send = trusted(performs(({ to, subject }) => new SendEmail(to, subject)), function send(msg: { to: string; subject: string; ⟦cc?: string;⟧ }): void {});\n` },
  { name: "a method in a named interface of the same file", code: 93024, body: `export interface Msg { to: string; subject: string; ⟦render(): string;⟧ }\nexport const send = trusted(performs(({ to, subject }) => new SendEmail(to, subject)), function send(msg: Msg): void {});\n` },
  { name: "a property of an unmodelled type", code: 93024, body: `export const send = trusted(performs(({ to, subject }) => new SendEmail(to, subject)), function send(msg: { to: string; subject: string; ⟦at: Date;⟧ }): void {});\n` },
  { name: "a default in the builder's pattern", code: 93025, body: `export const send = trusted(performs(({ ⟦to = "x@y"⟧, subject }) => new SendEmail(to, subject)), function send(msg: { to: string; subject: string }): void {});\n` },
  { name: "a rest element in a requires pattern", code: 93025, body: `export const send = trusted(performs(({ to, subject }) => new SendEmail(to, subject)), requires(({ ⟦...rest⟧ }) => rest.to !== ""), function send(msg: { to: string; subject: string }): void {});\n` },
  { name: "a second builder parameter", code: 93025, body: `export const send = trusted(performs((msg, ⟦extra⟧) => new SendEmail(msg.to, msg.subject)), function send(msg: { to: string; subject: string }): void {});\n` },
  { name: "a destructured name the object does not have", code: 93004, body: `export const send = trusted(performs(({ to, ⟦title⟧ }) => new SendEmail(to, title)), function send(msg: { to: string; subject: string }): void {});\n` },
  { name: "a literal event field", code: 93003, body: `export const send = trusted(performs(({ to }) => new SendEmail(to, ⟦"hi"⟧)), function send(msg: { to: string; subject: string }): void {});\n` },
  { name: "a computed event field from the whole object", code: 93003, body: `export const send = trusted(performs((m) => new SendEmail(m.to, ⟦m.subject.trim()⟧)), function send(msg: { to: string; subject: string }): void {});\n` },
  { name: "an event field of another type", code: 93006, body: `export const charge = trusted(performs(({ account, amount }) => new Pay(account, ⟦amount⟧)), function charge(p: { account: string; amount: string }): void {});\n` },
  { name: "a declared property type that differs from the tool's", code: 93006, body: `export const charge = trusted(performs((⟦p: { account: string; amount: string }⟧) => new Pay(p.account, 0 as never)), function charge(p: { account: string; amount: number }): void {});\n` },
];

describe("layer rules on tools of one object of named arguments", () => {
  for (const c of invalid) {
    it(`reports ${c.name} (TS${c.code}) on its exact span`, () => {
      const { text, span } = unmark(c.body);
      const { findings } = read(text);
      const at = text.slice(span!.start, span!.start + span!.length);
      expect(findings.filter((f) => f.code === c.code).map((f) => f.text)).toEqual([at]);
      for (const f of findings) expect(f.message).toMatch(/\b(Write|Declare|Add|Pass|Rename|Return|Call|Use)\b/);
    });
  }

  it("accepts an inline object type, a named interface and a type alias, builders that destructure or take the whole object, and predicates of both forms", () => {
    const { layer, findings } = read(`export interface Payment { account: string; amount: number }
export type Message = { to: string; subject: string; body: string };
export const send = trusted(performs(({ to, subject }) => new SendEmail(to, subject)), requires(({ to }) => to.includes("@")), function send(msg: Message): void {});
export const charge = trusted(performs((p: Payment) => new Pay(p.account, p.amount)), requires((p) => p.amount > 0), ensures((r: string, { account }) => r.startsWith(account)), function charge(p: Payment): string { return p.account; });
export const renamed = trusted(performs(({ account: who, amount }) => new Pay(who, amount)), function renamed(q: { account: string; amount: number }): void {});
export const positional = trusted(performs((to: string, subject: string) => new SendEmail(to, subject)), function positional(to: string, subject: string): void {});
`);
    expect(findings).toEqual([]);
    const tool = (name: string) => [...layer.model.tools.values()].find((t) => t.name === name)!;
    expect(tool("send").objectParameter?.name).toBe("msg");
    expect(tool("send").parameters.map((p) => `${p.name}: ${p.typeText}`)).toEqual(["to: string", "subject: string", "body: string"]);
    expect(tool("send").performs?.events.map((e) => e.fields)).toEqual([{ to: "to", subject: "subject" }]);
    expect(tool("charge").performs?.events.map((e) => e.fields)).toEqual([{ account: "account", amount: "amount" }]);
    expect(tool("charge").ensures[0]!.parameters).toEqual(["account"]);
    expect(tool("renamed").performs?.events.map((e) => e.fields)).toEqual([{ account: "account", amount: "amount" }]);
    expect(tool("positional").objectParameter).toBeUndefined();
  });
});
