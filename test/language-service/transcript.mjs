#!/usr/bin/env node
/**
 * `node test/language-service/transcript.mjs`: what a real tsserver with clauz3/language-service
 * reports for the demo program of docs/editor.md (the stdlib filesystem layer and a program that reads a
 * path it is given): the diagnostics as opened, after the edit that fixes it, and the hover on its
 * guarantee. docs/editor.md's transcript is this script's output.
 */
import * as path from "node:path";
import { ensureBuilt, FS_HEADER, locate, makeProject, ours, removeProject, Tsserver } from "./tsserver-client.mjs";

export const DEMO = FS_HEADER + `export const guarantees = [fs.neverReadUnder("/secrets")];

export function main(paths: string[]): void {
  for (const path of paths) {
    if (path !== "") readFile(path);
  }
}
`;
export const FIXED = DEMO.replace('if (path !== "")', 'if (path !== "" && !path.startsWith("/secrets"))');

function show(file, diagnostics, write) {
  for (const d of diagnostics) {
    write(`${file}(${d.start.line},${d.start.offset}): ${d.category} TS${d.code}: ${d.text}`);
    for (const r of d.relatedInformation ?? []) write(`  ${path.basename(r.span.file)}(${r.span.start.line},${r.span.start.offset}): ${r.message}`);
  }
}

export async function transcript(write = (line) => process.stdout.write(`${line}\n`)) {
  ensureBuilt();
  const dir = makeProject({ files: { "plan.ts": DEMO } });
  const s = new Tsserver(dir, { verbose: false });
  try {
    await s.open("plan.ts");
    write("$ # plan.ts as written (tsserver geterr: semanticDiag + suggestionDiag, source clauz3)");
    const before = await s.pollDiagnostics("plan.ts", (v) => ours(v.semantic).length > 0, { budgetMs: 60_000 });
    show("plan.ts", ours(before.semantic), write);
    show("plan.ts", ours(before.suggestion), write);
    write("");
    write('$ # after the edit: if (path !== "" && !path.startsWith("/secrets")) readFile(path);');
    await s.replace("plan.ts", DEMO, FIXED);
    const after = await s.pollDiagnostics("plan.ts", (v) => ours(v.suggestion).some((d) => d.text.startsWith("proved: ")), { budgetMs: 60_000 });
    show("plan.ts", ours(after.semantic), write);
    show("plan.ts", ours(after.suggestion), write);
    write("");
    const at = locate(FIXED, "neverReadUnder(");
    write(`$ # hover on neverReadUnder (quickinfo at ${at.line}:${at.offset})`);
    const info = await s.quickinfo("plan.ts", at.line, at.offset);
    write(info.displayString);
    for (const line of info.documentation.split("\n---\n")[0].trim().split("\n")) write(line);
  } finally {
    await s.close();
    removeProject(dir);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await transcript();
