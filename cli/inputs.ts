/**
 * The files `prove`, `check` and `describe` are given: a file stands for itself; a directory for
 * every TypeScript source below it; a glob (picomatch, relative to the current directory) for the
 * TypeScript sources it matches. `node_modules` and declaration files are never picked from a
 * directory or a glob. Nothing that matches is a usage error naming the argument.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import picomatch from "picomatch";
import { CliError, EXIT } from "./io";

export interface Input {
  /** Absolute path. */
  readonly file: string;
  /** Named on the command line (not picked from a directory or a glob): its problems are errors. */
  readonly explicit: boolean;
}

const SOURCE = /\.(?:[cm]?ts|tsx)$/;
const DECLARATION = /\.d\.[cm]?ts$/;

function sourcesBelow(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const e of fs.readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      if (e.name === "node_modules" || e.name.startsWith(".")) continue;
      const full = path.join(d, e.name);
      if (e.isDirectory()) walk(full);
      else if (e.isFile() && SOURCE.test(e.name) && !DECLARATION.test(e.name)) out.push(full);
    }
  };
  walk(dir);
  return out;
}

export function expandInputs(cwd: string, args: readonly string[]): Input[] {
  const seen = new Set<string>();
  const out: Input[] = [];
  const add = (file: string, explicit: boolean): void => {
    if (seen.has(file)) return;
    seen.add(file);
    out.push({ file, explicit });
  };
  for (const arg of args) {
    const abs = path.resolve(cwd, arg);
    if (fs.existsSync(abs)) {
      if (fs.statSync(abs).isDirectory()) {
        const found = sourcesBelow(abs);
        if (found.length === 0) throw new CliError(`clauz3: ${arg} holds no TypeScript source file.`, EXIT.usage);
        for (const f of found) add(f, false);
      } else {
        add(abs, true);
      }
      continue;
    }
    const scan = picomatch.scan(arg);
    if (!scan.isGlob) throw new CliError(`clauz3: ${arg} does not exist.`, EXIT.usage);
    const base = path.resolve(cwd, scan.base || ".");
    const match = picomatch(scan.glob, { dot: false });
    const found = fs.existsSync(base) && fs.statSync(base).isDirectory() ? sourcesBelow(base).filter((f) => match(path.relative(base, f).replace(/\\/g, "/"))) : [];
    if (found.length === 0) throw new CliError(`clauz3: ${arg} matches no TypeScript source file.`, EXIT.usage);
    for (const f of found) add(f, false);
  }
  return out;
}
