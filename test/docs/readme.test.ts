/**
 * The README is short: what clauz3 is, the loop, the two commands of a fresh clone, the quick start
 * and links. Every section it used to hold lives in docs/ (each link must resolve), and the rule,
 * proof-code and coverage-code tables are generated into docs/rules.md (test/docs/generated.test.ts).
 */
import * as fs from "node:fs";
import * as path from "node:path";

const ROOT = path.resolve(__dirname, "../..");
const readme = (): string => fs.readFileSync(path.join(ROOT, "README.md"), "utf8");

it("README opens with the demo and test commands, and .ci/run runs exactly the test command", () => {
  const block = /```sh\n([\s\S]*?)```/.exec(readme())?.[1] ?? "";
  expect(block).toMatch(/npm run demo/);
  expect(block).toMatch(/npm test/);
  const ci = fs.readFileSync(path.join(ROOT, ".ci/run"), "utf8");
  expect(ci).toMatch(/npm ci/);
  expect(ci).toMatch(/npm test/);
});

it("README has a quick start for an outside project: init, a proved program, check, a violated line", () => {
  const text = readme();
  expect(text).toMatch(/npx clauz3 init/);
  expect(text).toMatch(/npm run check/);
  expect(text).toMatch(/```ts agent proved/);
  expect(text).toMatch(/```ts agent violated/);
  expect(text.split("\n").length).toBeLessThan(120);
});

it("every relative link of the README and docs/ resolves to a file", () => {
  const pages = ["README.md", ...fs.readdirSync(path.join(ROOT, "docs")).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`)];
  const broken: string[] = [];
  for (const page of pages) {
    const text = fs.readFileSync(path.join(ROOT, page), "utf8").replace(/```[\s\S]*?```/g, "");
    for (const m of text.matchAll(/\]\(([^)\s#]+)(#[^)\s]*)?\)/g)) {
      const target = m[1]!;
      if (/^[a-z]+:/.test(target)) continue;
      if (!fs.existsSync(path.resolve(ROOT, path.dirname(page), target))) broken.push(`${page}: ${target}`);
    }
  }
  expect(broken).toEqual([]);
});

it("every section the README held before the docs split is a docs/ page", () => {
  const moved: Record<string, string> = {
    "trusted-layer.md": "# Writing a trusted layer",
    "prover.md": "# Agent programs and the prover",
    "commands.md": "# CLI",
    "approvals.md": "# Approvals and `clauz3 run`",
    "rules.md": "# Rules and codes",
    "descriptions.md": "# Descriptions, identity and the catalog",
    "build.md": "# Build-time checks (tspc)",
    "editor.md": "# Editor (tsserver plugin)",
    "benchmarks.md": "# Benchmarks",
    "design.md": "# Design",
  };
  for (const [page, heading] of Object.entries(moved)) {
    expect(fs.readFileSync(path.join(ROOT, "docs", page), "utf8").startsWith(heading), page).toBe(true);
    expect(readme(), page).toContain(`](docs/${page})`);
  }
});

it("the README links every docs/ page", () => {
  const text = readme();
  const unlinked = fs.readdirSync(path.join(ROOT, "docs")).filter((f) => f.endsWith(".md") && !text.includes(`](docs/${f})`));
  expect(unlinked).toEqual([]);
});
