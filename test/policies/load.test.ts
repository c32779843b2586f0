/**
 * Reading policy files: a valid policy, and every way a file can be bad, each reported with the
 * file and the path of the bad field (never a stack trace). Clause syntax is parsed by TypeScript's
 * parser: positional and named arguments, every literal kind, and what is not a literal.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import ts from "typescript";
import { parseClause, parsePolicy, PolicyError, readPolicyFile } from "../../core/policy";

const FILE = "ops/policy.json";

function rule(extra: Record<string, unknown>): Record<string, unknown> {
  return { name: "r", decision: "auto_rejected", reason: "because", unlessProven: ['fs.neverReadUnder("/secrets")'], ...extra };
}

function problem(data: unknown): { field: string; problem: string; message: string } {
  const text = typeof data === "string" ? data : JSON.stringify(data);
  try {
    parsePolicy(ts, FILE, text);
  } catch (error) {
    if (!(error instanceof PolicyError)) throw error;
    expect(error.file).toBe(FILE);
    expect(error.message).toBe(`${FILE}: ${error.field} ${error.problem}`);
    return { field: error.field, problem: error.problem, message: error.message };
  }
  throw new Error(`accepted: ${text}`);
}

describe("a valid policy", () => {
  it("keeps each rule's name, decision, reason and its clause list, in file order", () => {
    const policy = parsePolicy(ts, FILE, JSON.stringify({
      $schema: "../schema/policy.schema.json",
      version: 1,
      rules: [
        { name: "allow", decision: "auto_approved", reason: "read-only", whenProven: ["fs.readOnly()"] },
        { name: "deny", decision: "auto_rejected", reason: "no secrets", unlessProven: ['fs.neverReadUnder(prefix="/secrets")', "fs.writesAtMost(0)"] },
      ],
    }));
    expect(policy.file).toBe(FILE);
    expect(policy.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(policy.rules).toEqual([
      { name: "allow", decision: "auto_approved", reason: "read-only", clauses: ["fs.readOnly()"], index: 0 },
      { name: "deny", decision: "auto_rejected", reason: "no secrets", clauses: ['fs.neverReadUnder(prefix="/secrets")', "fs.writesAtMost(0)"], index: 1 },
    ]);
  });

  it("the example of docs/policies.md is one", () => {
    const docs = fs.readFileSync(path.join(__dirname, "../../docs/policies.md"), "utf8");
    const example = /```json\n([\s\S]*?)```/.exec(docs)![1]!;
    expect(parsePolicy(ts, "policy.json", example).rules.map((r) => [r.name, r.decision])).toEqual([["only-a", "auto_approved"], ["no-etc", "auto_rejected"]]);
  });

  it("may have no rules at all (every request goes to a person)", () => {
    expect(parsePolicy(ts, FILE, '{"version":1,"rules":[]}').rules).toEqual([]);
  });
});

describe("a bad policy file names the file and the field", () => {
  it.each<[string, unknown, string, RegExp]>([
    ["not JSON", '{"version": 1,\n  "rules": [}', "the file", /^is not valid JSON \(line 2, column 13\)/],
    ["not an object", "[]", "the policy", /^must be a JSON object$/],
    ["no version", { rules: [] }, "version", /^is missing$/],
    ["another version", { version: 2, rules: [] }, "version", /^must be 1/],
    ["no rules", { version: 1 }, "rules", /^is missing$/],
    ["an unknown top-level key", { version: 1, rules: [], extra: true }, "extra", /^is not a field of a policy/],
    ["rules not an array", { version: 1, rules: {} }, "rules", /^must be an array$/],
    ["an unknown rule key", { version: 1, rules: [rule({ when: [] })] }, "rules[0].when", /^is not a field of a policy rule/],
    ["a rule without a name", { version: 1, rules: [rule({ name: undefined })] }, "rules[0].name", /^is missing$/],
    ["an empty name", { version: 1, rules: [rule({ name: "" })] }, "rules[0].name", /^must not be empty$/],
    ["a name with a control character", { version: 1, rules: [rule({ name: "a\nb" })] }, "rules[0].name", /control characters/],
    ["a rule without a reason", { version: 1, rules: [rule({ reason: undefined })] }, "rules[0].reason", /^is missing$/],
    ["an unknown decision", { version: 1, rules: [rule({ decision: "auto_approve" })] }, "rules[0].decision", /^must be one of "auto_approved", "auto_rejected"$/],
    ["auto_approved with unlessProven", { version: 1, rules: [rule({ decision: "auto_approved", unlessProven: ["fs.readOnly()"], whenProven: ["fs.readOnly()"] })] }, "rules[0].unlessProven", /auto_approved pairs with whenProven/],
    ["auto_approved without whenProven", { version: 1, rules: [rule({ decision: "auto_approved" })] }, "rules[0].unlessProven", /an auto_approved rule uses whenProven/],
    ["auto_rejected with whenProven", { version: 1, rules: [rule({ unlessProven: undefined, whenProven: ["fs.readOnly()"] })] }, "rules[0].whenProven", /an auto_rejected rule uses unlessProven/],
    ["auto_rejected with no list", { version: 1, rules: [rule({ unlessProven: undefined })] }, "rules[0].unlessProven", /^is missing: an auto_rejected rule lists in unlessProven/],
    ["an empty clause list", { version: 1, rules: [rule({ unlessProven: [] })] }, "rules[0].unlessProven", /^must list at least one contract call$/],
    ["an empty clause", { version: 1, rules: [rule({ unlessProven: [""] })] }, "rules[0].unlessProven[0]", /^must not be empty$/],
    ["a clause that is not a string", { version: 1, rules: [rule({ unlessProven: [3] })] }, "rules[0].unlessProven[0]", /^must be a string$/],
    ["a second rule of the same name", { version: 1, rules: [rule({}), rule({})] }, "rules[1].name", /repeats the name of rules\[0\]/],
    ["a key stated twice", '{"version":1,"rules":[{"name":"r","decision":"auto_rejected","reason":"x","unlessProven":["a.b()"],"decision":"auto_approved"}]}', "rules[0].decision", /^is stated twice \(line 1, column \d+\)/],
    ["a clause without a call", { version: 1, rules: [rule({ unlessProven: ["fs.readOnly"] })] }, "rules[0].unlessProven[0]", /^"fs.readOnly" is not a contract call/],
    ["an unqualified callee", { version: 1, rules: [rule({ unlessProven: ["readOnly()"] })] }, "rules[0].unlessProven[0]", /is not a library-qualified contract name/],
    ["a computed argument", { version: 1, rules: [rule({ unlessProven: ['fs.neverReadUnder("/a" + "b")'] })] }, "rules[0].unlessProven[0]", /`"\/a" \+ "b"` as an argument, which is not a literal/],
    ["an identifier argument", { version: 1, rules: [rule({ unlessProven: ["fs.writesAtMost(n=Infinity)"] })] }, "rules[0].unlessProven[0]", /`Infinity` as an argument/],
    ["trailing text", { version: 1, rules: [rule({ unlessProven: ["fs.readOnly() extra"] })] }, "rules[0].unlessProven[0]", /does not parse as a contract call/],
    ["an unterminated string", { version: 1, rules: [rule({ unlessProven: ['fs.neverReadUnder("/a)'] })] }, "rules[0].unlessProven[0]", /does not parse/],
    ["a positional argument after a named one", { version: 1, rules: [rule({ unlessProven: ['email.atMostEmailsTo(recipient="a", 0)'] })] }, "rules[0].unlessProven[0]", /positional arguments come first/],
    ["a named argument twice", { version: 1, rules: [rule({ unlessProven: ["fs.writesAtMost(n=1, n=2)"] })] }, "rules[0].unlessProven[0]", /names the argument `n` twice/],
    ["a spread", { version: 1, rules: [rule({ unlessProven: ["fs.onlyReadsFiles([...x])"] })] }, "rules[0].unlessProven[0]", /list each element literally/],
    ["FilePath of a number", { version: 1, rules: [rule({ unlessProven: ["fs.onlyReadsFiles([FilePath(3)])"] })] }, "rules[0].unlessProven[0]", /FilePath\(…\) takes one string literal/],
  ])("%s", (_what, data, field, message) => {
    const p = problem(data);
    expect(p.field).toBe(field);
    expect(p.problem).toMatch(message);
  });

  it("a file that does not exist, and a directory, name the file", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "clauz3-policy-"));
    try {
      expect(() => readPolicyFile(ts, path.join(dir, "none.json"), "none.json")).toThrow("none.json: the file does not exist");
      expect(() => readPolicyFile(ts, dir, "ops")).toThrow("ops: the file is a directory, not a policy file");
      fs.writeFileSync(path.join(dir, "p.json"), '{"version":1,"rules":[{"name":"x"}]}');
      expect(() => readPolicyFile(ts, path.join(dir, "p.json"), "p.json")).toThrow(/^p\.json: rules\[0\]\.decision is missing$/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("clauses", () => {
  it("reads positional and named arguments of every literal kind", () => {
    expect(parseClause(ts, 'email.atMostEmailsTo("ceo@example.com", 0)')).toEqual({
      callee: "email.atMostEmailsTo",
      positional: [{ kind: "string", value: "ceo@example.com" }, { kind: "number", value: 0 }],
      named: [],
    });
    expect(parseClause(ts, ` fs.x(-2.5, named=[FilePath('a.md'), DirectoryPath("d")], flag=true, off=false, t=\`raw\`) `)).toEqual({
      callee: "fs.x",
      positional: [{ kind: "number", value: -2.5 }],
      named: [
        { name: "named", value: { kind: "array", items: [{ kind: "FilePath", value: "a.md" }, { kind: "DirectoryPath", value: "d" }] } },
        { name: "flag", value: { kind: "boolean", value: true } },
        { name: "off", value: { kind: "boolean", value: false } },
        { name: "t", value: { kind: "string", value: "raw" } },
      ],
    });
  });

  it("takes a library name that is not an identifier (a folder name)", () => {
    expect(parseClause(ts, 'my-lib.only("x")').callee).toBe("my-lib.only");
  });
});
