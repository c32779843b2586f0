#!/usr/bin/env node
/**
 * Regenerate the generated parts of the docs: the blocks between `<!-- generated:NAME … -->` and
 * `<!-- /generated:NAME -->` in docs/*.md (and README.md), from the rule data (core/rules.ts and
 * core/coverage/rules.ts, built to dist/: run `npm run build` first). `--check` writes nothing
 * and exits 1 naming every stale block; test/docs/generated.test.ts runs the same check.
 *
 *   npm run docs            # write
 *   npm run docs -- --check # compare
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { coverageCodesTable, proofCodesTable, rulesTable } from "./rules-table.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** Every generated block by name. */
export const GENERATORS = {
  rules: rulesTable,
  "proof-codes": proofCodesTable,
  "coverage-codes": coverageCodesTable,
};

/** The markdown files that may hold generated blocks: README.md and docs/*.md. */
export function docFiles() {
  const docs = fs.readdirSync(path.join(ROOT, "docs")).filter((f) => f.endsWith(".md")).sort().map((f) => path.join("docs", f));
  return ["README.md", ...docs];
}

const BLOCK = /(<!-- generated:([\w-]+)[^\n]*-->\n)([\s\S]*?)(<!-- \/generated:\2 -->)/g;

/** The file's text with every generated block regenerated; throws on a block of an unknown name. */
export function regenerate(file, text) {
  return text.replace(BLOCK, (_all, open, name, _body, close) => {
    const generate = GENERATORS[name];
    if (!generate) throw new Error(`${file}: unknown generated block "${name}" (known: ${Object.keys(GENERATORS).join(", ")})`);
    return `${open}${generate()}\n${close}`;
  });
}

/** Each file with generated blocks: its name, whether it is current, and its regenerated text. */
export function generatedFiles() {
  const out = [];
  for (const file of docFiles()) {
    const text = fs.readFileSync(path.join(ROOT, file), "utf8");
    const blocks = [...text.matchAll(BLOCK)].map((m) => m[2]);
    if (blocks.length === 0) continue;
    const expected = regenerate(file, text);
    out.push({ file, blocks, current: expected === text, expected });
  }
  return out;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const check = process.argv.includes("--check");
  let stale = 0;
  for (const f of generatedFiles()) {
    if (f.current) continue;
    stale++;
    if (check) process.stderr.write(`${f.file}: generated blocks (${f.blocks.join(", ")}) are not current; run \`npm run docs\`.\n`);
    else {
      fs.writeFileSync(path.join(ROOT, f.file), f.expected, "utf8");
      process.stderr.write(`wrote ${f.file}\n`);
    }
  }
  process.exit(check && stale > 0 ? 1 : 0);
}
