import * as fs from "node:fs";
import * as path from "node:path";
import ts from "typescript";
import { createDefaultMapFromNodeModules, createSystem, createVirtualCompilerHost } from "@typescript/vfs";
import { buildLock, LOCK_FILE, serializeLock, sha256Hex } from "../core/lock";
import { packageFiles } from "./package-files";

/** The repository root: the nearest directory above this file whose package.json is clauz3's (this file also runs compiled, from fuzz/.build). */
export const ROOT = ((): string => {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    const pkg = path.join(dir, "package.json");
    if (fs.existsSync(pkg) && (JSON.parse(fs.readFileSync(pkg, "utf8")) as { name?: string }).name === "clauz3") return dir;
    if (path.dirname(dir) === dir) throw new Error(`fuzz: no clauz3 package.json above ${__dirname}`);
  }
})();

export const PROJECT = "/project";
/** Where the generated program lives in the in-memory project (the i-th of a batch: `plan<i>.ts`), and the import path of the layer from it. */
export const PLAN = `${PROJECT}/plan.ts`;
const planPath = (i: number): string => (i === 0 ? PLAN : `${PROJECT}/plan${i}.ts`);
export const LAYER_PATH = `${PROJECT}/tools/fuzz/trusted/layer.ts`;
export const LAYER_IMPORT = "./tools/fuzz/trusted/layer";

/** The options generated programs are checked under (those of test/helpers/program.ts: agents' projects have Node's globals, `console` among them). */
export const compilerOptions: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.Preserve,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  strict: true,
  noEmit: true,
  skipLibCheck: true,
  lib: ["lib.es2022.d.ts"],
  types: ["node"],
};

/** The fuzz layer's source text. */
export function fuzzLayerText(): string {
  return fs.readFileSync(path.join(ROOT, "fuzz/layer/layer.ts"), "utf8");
}

/**
 * An in-memory project (TypeScript's libs, the clauz3 runtime sources as `node_modules/clauz3`, @types/node,
 * one trusted layer pinned by its `clauz3.lock`) in which program after program is type-checked. Every file but the program
 * is parsed once: a fresh `ts.Program` per program reuses the parsed libraries and layer, which
 * makes a program about ten times cheaper to check than a fresh project.
 */
export class Project {
  private readonly host: ReturnType<typeof createVirtualCompilerHost>;
  private previous: ts.Program | undefined;
  /** The in-memory file system: where Node would look for the modules a program loads. */
  readonly system: ts.System;

  constructor(readonly layerText: string) {
    const files = createDefaultMapFromNodeModules(compilerOptions, ts);
    for (const [name, text] of packageFiles(ROOT)) files.set(name, text);
    files.set(LAYER_PATH, layerText);
    // The operator pinned the layer (as `clauz3 lock` would): without the lock, nothing over it is proved.
    files.set(`${PROJECT}/${LOCK_FILE}`, serializeLock(buildLock(PROJECT, [{ fileName: LAYER_PATH, sha256: sha256Hex(Buffer.from(layerText, "utf8")) }])));
    files.set(PLAN, "export {};\n");
    const system = createSystem(files);
    system.getCurrentDirectory = () => PROJECT;
    this.system = system;
    this.host = createVirtualCompilerHost(system, compilerOptions, ts);
    this.host.compilerHost.getCurrentDirectory = () => PROJECT;
  }

  /** A type-checked program whose `plan.ts` is `text`. */
  program(text: string): { program: ts.Program; file: ts.SourceFile } {
    const { program, files } = this.programs([text]);
    return { program, file: files[0]! };
  }

  /**
   * One type-checked program holding several agent programs (`plan.ts`, `plan1.ts`, …), each proved
   * on its own: the layer is then type-checked once for all of them, which is most of the cost of
   * checking a small program.
   */
  programs(texts: readonly string[]): { program: ts.Program; files: ts.SourceFile[] } {
    const names = texts.map((_, i) => planPath(i));
    texts.forEach((text, i) => this.host.updateFile(ts.createSourceFile(names[i]!, text, ts.ScriptTarget.ES2022, true)));
    const program = ts.createProgram({ rootNames: [LAYER_PATH, ...names], options: compilerOptions, host: this.host.compilerHost, oldProgram: this.previous });
    this.previous = program;
    return { program, files: names.map((n) => program.getSourceFile(n)!) };
  }
}

/** TypeScript's errors in the program file, as `TS<code> line: message`. */
export function typeErrors(program: ts.Program, file: ts.SourceFile): string[] {
  return [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)]
    .filter((d) => d.category === ts.DiagnosticCategory.Error)
    .map((d) => `TS${d.code} ${file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}: ${ts.flattenDiagnosticMessageText(d.messageText, " ")}`);
}
