/**
 * The batch surfaces under the review's robustness cases: `clauz3 prove` and `clauz3 check` print
 * one JSON document with a verdict for every file — those that break a limit refused with a
 * message naming the limit, the others as before — and a tsconfig.json with syntax errors is a
 * configuration error naming the file, the line and TypeScript's message (exit 2).
 */
import { clauz3, ensureBuilt, removeProject, stdlibLayer, tempProject } from "../cli/helpers";

/** The stdlib layer's implementation uses node:fs: the project sees @types/node (from this repository). */
const TSCONFIG = JSON.stringify({
  compilerOptions: { target: "ES2022", module: "preserve", moduleResolution: "bundler", strict: true, skipLibCheck: true, noEmit: true, types: ["node"], typeRoots: ["./node_modules/clauz3/node_modules/@types"] },
  include: ["**/*.ts"],
  exclude: ["node_modules"],
});

const projects: string[] = [];
function project(files: Record<string, string>): string {
  const dir = tempProject({ "tsconfig.json": TSCONFIG, ...files });
  projects.push(dir);
  return dir;
}

beforeAll(() => ensureBuilt());
afterAll(() => projects.forEach(removeProject));

const HEAD = `import { readFile } from "./tools/filesystem/trusted/effects";
import * as fs from "./tools/filesystem/trusted/contracts";
export const guarantees = [fs.neverReadUnder("/secret")];
`;
const program = (expression: string) => `${HEAD}export function main(p: string, n: number): void {
  const x = ${expression};
  if (x.length > 0 && !x.startsWith("/secret")) readFile(x);
}
`;
const FILES = {
  "ok.ts": program("p"),
  // TypeScript's own parser runs out of stack on this one.
  "unparsable.ts": program(`${'"a" + ('.repeat(1500)}p${")".repeat(1500)}`),
  "nested.ts": program(`${Array.from({ length: 700 }, (_, i) => `n === ${i} ? "/a${i}" : `).join("")}p`),
  "long.ts": program(`p === "${"a".repeat(20_000)}" ? "/b" : p`),
};

interface Json {
  programs: { file: string; verdict: string; results: { verdict: string; code: number; message: string }[] }[];
}

function expectBatch(json: Json): void {
  const byFile = new Map(json.programs.map((p) => [p.file, p]));
  expect([...byFile.keys()].sort()).toEqual(["long.ts", "nested.ts", "ok.ts", "unparsable.ts"]);
  expect(byFile.get("ok.ts")!.verdict).toBe("proved");
  const messages = (f: string) => byFile.get(f)!.results.map((r) => r.message).join("\n");
  expect(byFile.get("unparsable.ts")!.verdict).toBe("refused");
  expect(messages("unparsable.ts")).toMatch(/this program could not be read: TypeScript's parser ran out of stack/);
  expect(byFile.get("nested.ts")!.verdict).toBe("refused");
  expect(messages("nested.ts")).toMatch(/nested more than 200 levels deep/);
  expect(byFile.get("long.ts")!.verdict).toBe("refused");
  expect(messages("long.ts")).toMatch(/This string literal has 20000 characters/);
}

describe("a batch with files beyond the limits", () => {
  it("prove --json gives every file its verdict", () => {
    const dir = project({ ...stdlibLayer(), ...FILES });
    const r = clauz3(["prove", "--json", "unparsable.ts", "nested.ts", "long.ts", "ok.ts"], dir);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(1);
    expectBatch(JSON.parse(r.stdout) as Json);
  });

  it("check --json reports the file TypeScript could not parse as a refused program", () => {
    const dir = project({ ...stdlibLayer(), ...FILES });
    const r = clauz3(["check", "--json"], dir);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(1);
    expectBatch(JSON.parse(r.stdout) as Json);
  });

  it("a program that loads a module TypeScript could not parse is refused, naming that module", () => {
    const dir = project({
      ...stdlibLayer(),
      "helper.ts": `export const deep = ${'"a" + ('.repeat(1500)}"b"${")".repeat(1500)};\n`,
      "uses.ts": `${HEAD}import { deep } from "./helper";\nexport function main(p: string): void {\n  if (deep.length > 0) readFile(deep);\n}\n`,
    });
    const r = clauz3(["prove", "--json", "uses.ts"], dir);
    const json = JSON.parse(r.stdout) as Json;
    expect(json.programs[0]!.verdict).toBe("refused");
    expect(json.programs[0]!.results[0]!.message).toMatch(/^refused: helper\.ts, which this program loads, could not be read/);
  });
});

describe("the solver options", () => {
  it("--program-timeout ends the program's queries as refused, saying how to raise it", () => {
    const dir = project({ ...stdlibLayer(), "ok.ts": FILES["ok.ts"] });
    const r = clauz3(["prove", "--json", "--program-timeout", "1", "ok.ts"], dir);
    expect(r.status).toBe(1);
    const json = JSON.parse(r.stdout) as Json & { programs: { provisional?: string }[] };
    expect(json.programs[0]!.verdict).toBe("refused");
    expect(json.programs[0]!.provisional).toMatch(/time budget of 1 ms ran out/);
    const refused = json.programs[0]!.results.filter((r) => r.verdict === "refused");
    expect(refused.length).toBeGreaterThan(0);
    for (const x of refused) {
      expect(x.code).toBe(93105);
      expect(x.message).toMatch(/the program's time budget of 1 ms ran out .*raise it with --program-timeout <ms>/);
    }
  });

  it("--rlimit bounds each query's work", () => {
    // A read the guard keeps out of /secret through a replacement: an unsatisfiable query only Z3
    // answers (the ranges settle ok.ts's queries with no units at all, and a guessed model would
    // answer a satisfiable one with none).
    const open = `${HEAD}export function main(p: string): void {\n  if (p.replace("a", "b").startsWith("/pub/")) readFile(p);\n}\n`;
    const dir = project({ ...stdlibLayer(), "open.ts": open });
    const r = clauz3(["prove", "--json", "--rlimit", "1", "open.ts"], dir);
    const json = JSON.parse(r.stdout) as Json & { programs: { provisional?: string }[] };
    expect(json.programs[0]!.verdict).toBe("refused");
    expect(json.programs[0]!.provisional).toBeUndefined();
    expect(json.programs[0]!.results.map((x) => x.message).join("\n")).toMatch(/resource limit of 1 units; raise it with --rlimit <units>/);
  });

  it.each([
    [["--program-timeout", "0"], /--program-timeout expects a positive whole number of milliseconds, not "0"/],
    [["--rlimit", "many"], /--rlimit expects a positive whole number of resource units, not "many"/],
    [["--rlimit", "5000000000"], /--rlimit is at most 4294967295/],
    [["--timeout", "1.5"], /--timeout expects a positive whole number of milliseconds/],
  ])("%j is a usage error", (flags, message) => {
    const dir = project({ ...stdlibLayer(), "ok.ts": FILES["ok.ts"] });
    for (const command of [["prove", ...flags, "ok.ts"], ["check", ...flags]]) {
      const r = clauz3(command, dir);
      expect(r.status, r.stderr).toBe(2);
      expect(r.stderr).toMatch(message);
    }
  });
});

describe("a tsconfig.json with syntax errors", () => {
  const BROKEN = `{
  "compilerOptions": {
    "strict": true
    "noEmit": true,,
  }
}
`;

  it("is a configuration error naming the file, the line and TypeScript's message", () => {
    const dir = project({ ...stdlibLayer(), "ok.ts": FILES["ok.ts"], "tsconfig.json": BROKEN });
    for (const command of [["check"], ["check", "--json"], ["prove", "ok.ts"], ["prove", "--json", "ok.ts"]]) {
      const r = clauz3(command, dir);
      expect(r.status, command.join(" ")).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr).toMatch(/cannot read .*tsconfig\.json/);
      expect(r.stderr).toContain("tsconfig.json(4,5): error TS1005: ',' expected.");
      expect(r.stderr).toContain("tsconfig.json(4,20): error TS1136: Property assignment expected.");
    }
  });

  it("in a file it extends, too", () => {
    const dir = project({
      ...stdlibLayer(),
      "ok.ts": FILES["ok.ts"],
      "base.json": BROKEN,
      "tsconfig.json": JSON.stringify({ extends: "./base.json", compilerOptions: { module: "preserve", moduleResolution: "bundler", types: ["node"], typeRoots: ["./node_modules/clauz3/node_modules/@types"] }, include: ["**/*.ts"] }),
    });
    const r = clauz3(["check"], dir);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("base.json(4,5): error TS1005: ',' expected.");
  });
});
