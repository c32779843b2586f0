/**
 * `CLAUZ3_DUMP_SMT=<dir>`: each query as a standalone .smt2 file, for looking at what the solver
 * was asked (z3.ts fills a Trace while it solves and calls `dump` at the end).
 */
import * as fs from "node:fs";
import * as path from "node:path";

/** One query's record for `CLAUZ3_DUMP_SMT`. */
export interface Trace {
  readonly lines: string[];
  /** The query as the attempts read it, when simplification changed it (simplify.ts). */
  simplified?: string;
  regex?: string;
  words?: string;
  lifted?: string;
  skeleton?: string;
}

let dumpCounter = 0;
/**
 * `CLAUZ3_DUMP_SMT=<dir>`: write each query as a standalone .smt2 file (declarations, assertions,
 * `(check-sat)`) with the answer, the elapsed time and the attempts in comments at the end, and
 * the simplified query and the reformulations, when there were any, next to it (`…-simplified.smt2`,
 * `…-regex.smt2`, …).
 */
export function dump(text: string, trace: Trace, status: string, ms: number, rlimit: number): void {
  const dir = process.env.CLAUZ3_DUMP_SMT;
  if (!dir) return;
  try {
    fs.mkdirSync(dir, { recursive: true });
    const name = `q${process.pid}-${String(dumpCounter++).padStart(5, "0")}`;
    const comments = [`; status: ${status}`, `; elapsed-ms: ${ms.toFixed(1)}`, `; rlimit-used: ${rlimit}`, ...trace.lines.map((l) => `; attempt: ${l}`)].join("\n");
    fs.writeFileSync(path.join(dir, `${name}.smt2`), `(set-option :encoding bmp)\n${text}\n(check-sat)\n${comments}\n`);
    if (trace.simplified) fs.writeFileSync(path.join(dir, `${name}-simplified.smt2`), `(set-option :encoding bmp)\n${trace.simplified}\n(check-sat)\n`);
    if (trace.regex) fs.writeFileSync(path.join(dir, `${name}-regex.smt2`), `(set-option :encoding bmp)\n${trace.regex}\n(check-sat)\n`);
    if (trace.lifted) fs.writeFileSync(path.join(dir, `${name}-lifted.smt2`), `(set-option :encoding bmp)\n${trace.lifted}\n(check-sat)\n`);
    if (trace.skeleton) fs.writeFileSync(path.join(dir, `${name}-skeleton.smt2`), `${trace.skeleton}\n(check-sat)\n`);
    if (trace.words) fs.writeFileSync(path.join(dir, `${name}-words.smt2`), `(set-option :encoding bmp)\n${trace.words}\n(check-sat)\n`);
  } catch {
    /* dumping is best effort */
  }
}
