/**
 * Sizes (the outside review: comparing with a 20 KB string literal crashed inside Z3 with a stack
 * overflow; a 5 MB literal hung past 120 s at 1.6 GB). Literals and queries beyond the limits are
 * refused before Z3, or any parser of clauz3, sees them; within the limits they are proved.
 */
import { QUERY_LIMITS, queryProblem, queryShape } from "../../core/prover/limits";
import { PROOF_CODES } from "../../core/rules";
import { failures, proveOne } from "./helpers";

const compare = (literal: string) => `export const guarantees = [m.neverEmail("boss@corp.com")];
export function main(to: string): void {
  if (to !== "${literal}" && to !== "boss@corp.com") sendEmail(to, "hi");
}
`;

describe("string literals in the program", () => {
  it.each([
    ["20 KB", 20_000],
    ["5 MB", 5_000_000],
  ])("a %s literal is refused on the literal", async (_name, n) => {
    const v = await proveOne(compare("a".repeat(n)));
    expect(v.verdict).toBe("refused");
    const refusal = v.results.find((r) => r.message.includes(`has ${n} characters`));
    expect(refusal, failures(v).join("\n")).toBeDefined();
    expect(refusal!.code).toBe(PROOF_CODES.refused);
    expect(refusal!.message).toContain(`at most ${QUERY_LIMITS.maxLiteral}`);
    expect(refusal!.location.line).toBe(5);
    expect(refusal!.location.length).toBe(n + 2);
  });

  it("a literal at the limit is proved", async () => {
    const v = await proveOne(compare("é".repeat(QUERY_LIMITS.maxLiteral)));
    expect(failures(v)).toEqual([]);
  });

  it("a long guarantee argument and a long template part are refused", async () => {
    const long = "b".repeat(QUERY_LIMITS.maxLiteral + 1);
    const arg = await proveOne(`export const guarantees = [m.neverEmail("${long}")];\nexport function main(to: string): void {}\n`);
    expect(failures(arg).join("\n")).toContain(`has ${QUERY_LIMITS.maxLiteral + 1} characters`);
    const template = await proveOne(`export const guarantees = [m.neverEmail("boss@corp.com")];\nexport function main(to: string): void {\n  sendEmail(\`\${to}${long}\`, "hi");\n}\n`);
    expect(failures(template).join("\n")).toContain(`has ${QUERY_LIMITS.maxLiteral + 1} characters`);
  });

  it("a long string built from short literals is refused at the query, naming the limit", async () => {
    // 120 unrolled concatenations of 40 characters: 4800 characters in one term.
    const chunk = "0123456789abcdefghijklmnopqrstuvwxyzABCD";
    const v = await proveOne(`export const guarantees = [m.neverEmail("boss@corp.com")];
export function main(to: string): void {
  let s = "";
  for (let i = 0; i < 120; i++) s = s + "${chunk}";
  sendEmail(to + s, "hi");
}
`);
    expect(v.verdict).toBe("refused");
    expect(failures(v).join("\n")).toMatch(new RegExp(`string literal of \\d+ characters, more than the limit of ${QUERY_LIMITS.maxLiteral}`));
  });
});

describe("query limits", () => {
  it("measures depth and literal length without being fooled by strings, escapes and comments", () => {
    expect(queryShape('(assert (= x "ab""c\\u{1F600}\\ud83dz"))')).toEqual({ chars: 38, depth: 2, longestLiteral: 7 });
    expect(queryShape('(a (b (c)) "((((")')).toMatchObject({ depth: 3, longestLiteral: 4 });
    expect(queryShape("; ((((\n(a |((| (b))")).toMatchObject({ depth: 2 });
  });

  it("names the limit a query is beyond", () => {
    const small = { maxChars: 100, maxDepth: 3, maxLiteral: 5 };
    expect(queryProblem("(a (b (c)))", small)).toBeUndefined();
    expect(queryProblem("(a (b (c (d))))", small)).toMatch(/nests 4 levels deep, more than the limit of 3/);
    expect(queryProblem('(= x "abcdef")', small)).toMatch(/string literal of 6 characters, more than the limit of 5/);
    expect(queryProblem("x".repeat(101), small)).toMatch(/101 characters, more than the limit of 100/);
  });
});
