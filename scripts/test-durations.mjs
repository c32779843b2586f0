#!/usr/bin/env node
// Writes test/durations.json (read by test/sequencer.mts) from a vitest JSON report of a full run:
//   npx vitest run --reporter=json --outputFile.json=report.json && node scripts/test-durations.mjs report.json
// Seconds per test file, rounded; the sequencer starts the longest first on a fresh clone.
import * as fs from "node:fs";
import * as path from "node:path";

const [report] = process.argv.slice(2);
if (!report) {
  console.error("usage: node scripts/test-durations.mjs <vitest JSON report>");
  process.exit(2);
}
let parsed;
try {
  parsed = JSON.parse(fs.readFileSync(report, "utf8"));
} catch (error) {
  console.error(`${report}: not a readable vitest JSON report (${error.message})`);
  process.exit(2);
}
if (!Array.isArray(parsed.testResults)) {
  console.error(`${report}: no testResults array (write it with --reporter=json)`);
  process.exit(2);
}
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const out = {};
for (const file of parsed.testResults) {
  const seconds = Math.max(0, (file.endTime - file.startTime) / 1000);
  out[path.relative(root, file.name).split(path.sep).join("/")] = Math.round(seconds);
}
const sorted = Object.fromEntries(Object.entries(out).sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1)));
fs.writeFileSync(path.join(root, "test/durations.json"), `${JSON.stringify(sorted, null, 2)}\n`);
console.log(`test/durations.json: ${Object.keys(sorted).length} files, ${Math.round(Object.values(sorted).reduce((s, x) => s + x, 0))} s in all`);
