/**
 * An in-memory language service (`@typescript/vfs`) with the clauz3 runtime at
 * `node_modules/clauz3`, @types/node and the stdlib filesystem layer, and the clauz3 service
 * attached the way the tsserver plugin attaches it.
 */
import * as path from "node:path";
import ts from "typescript";
import { createVirtualTypeScriptEnvironment, type VirtualTypeScriptEnvironment } from "@typescript/vfs";
import { wrapLanguageService } from "../../language-service/plugin";
import { ProofScheduler } from "../../language-service/scheduler";
import { Clauz3Service, type Clauz3LanguageServiceConfig } from "../../language-service/service";

export { PROJECT, stdlibFiles } from "../helpers/program";
import { compilerOptions, PROJECT, virtualProject } from "../helpers/program";
import { lockFor, type LockOptions, type LockSpec } from "../helpers/lock";
import { LOCK_FILE } from "../../core/lock";

export const HEADER = `import { readFile, writeFile } from "./tools/filesystem/trusted/effects";
import * as fs from "./tools/filesystem/trusted/contracts";
`;

/** A project in memory with the plugin's service. */
export interface Harness {
  readonly env: VirtualTypeScriptEnvironment;
  readonly service: Clauz3Service;
  /** The language service as tsserver would see it with the plugin. */
  readonly ls: ts.LanguageService;
  readonly scheduler: ProofScheduler;
  readonly errors: string[];
  /** Absolute path of a project file. */
  at(rel: string): string;
  /** Resolves at the next `refreshDiagnostics()` (a proof settled for current content). */
  refreshed(): Promise<void>;
  /** Replace a file's whole text. */
  edit(rel: string, text: string): void;
  /**
   * Write clauz3.lock again for the current files, as `clauz3 lock` after a reviewed change. The
   * next program reads it; `service.lockChanged()` is what the plugin's file watcher calls.
   */
  relock(options?: LockOptions): void;
  /** Text of a project file in the current program. */
  text(rel: string): string;
  /** Semantic diagnostics after every pending proof of `rel` settled. */
  settledSemantic(rel: string): Promise<ts.Diagnostic[]>;
  settledSuggestions(rel: string): Promise<ts.Diagnostic[]>;
}

export function harness(
  files: Record<string, string>,
  { config, faults, open, lock }: { config?: Clauz3LanguageServiceConfig; faults?: ReadonlySet<string>; open?: (fileName: string) => boolean; lock?: LockSpec } = {},
): Harness {
  // The lock pins the layer as configured (trustedRoots, when it is a valid option).
  const roots0 = Array.isArray(config?.trustedRoots) ? { trustedRoots: config.trustedRoots } : {};
  const lockOptions = (extra: LockOptions | undefined): LockOptions => ({ ...roots0, ...extra });
  const { system, roots } = virtualProject(files, lock === false || (lock && "text" in lock) ? lock : lockOptions(lock));
  const current: Record<string, string> = { ...files };
  const env = createVirtualTypeScriptEnvironment(system, roots, ts, compilerOptions);
  const errors: string[] = [];
  let waiters: (() => void)[] = [];
  const scheduler = new ProofScheduler((m) => errors.push(m));
  const service = new Clauz3Service(
    {
      ts,
      getProgram: () => env.languageService.getProgram(),
      refresh: () => {
        const w = waiters;
        waiters = [];
        w.forEach((f) => f());
      },
      isOpen: open ?? (() => true),
      log: (m) => errors.push(m),
      id: "test",
    },
    config,
    scheduler,
  );
  const ls = wrapLanguageService(env.languageService, service, (method, error) => errors.push(`${method}: ${String(error)}`), faults ?? new Set());
  const at = (rel: string) => path.posix.join(PROJECT, rel);
  const refreshed = () => new Promise<void>((resolve) => waiters.push(resolve));
  const settle = async <T>(get: () => T): Promise<T> => {
    for (let i = 0; i < 600; i++) {
      get();
      if (!scheduler.busy) return get();
      await Promise.race([refreshed(), new Promise((r) => setTimeout(r, 100))]);
    }
    throw new Error("proofs did not settle");
  };
  return {
    env,
    service,
    ls,
    scheduler,
    errors,
    at,
    refreshed,
    edit: (rel, text) => {
      current[rel] = text;
      env.updateFile(at(rel), text);
    },
    relock: (options) => system.writeFile(at(LOCK_FILE), lockFor(current, PROJECT, lockOptions(options))),
    text: (rel) => env.getSourceFile(at(rel))!.text,
    settledSemantic: (rel) => settle(() => ls.getSemanticDiagnostics(at(rel))),
    settledSuggestions: (rel) => settle(() => ls.getSuggestionDiagnostics(at(rel))),
  };
}

/** clauz3's diagnostics, as `line:code` with the text of their span. */
export function shown(diagnostics: readonly ts.Diagnostic[]): { line: number; code: number; span: string; category: string; message: string }[] {
  return diagnostics
    .filter((d) => d.source === "clauz3")
    .map((d) => ({
      line: d.file!.getLineAndCharacterOfPosition(d.start!).line + 1,
      code: d.code,
      span: d.file!.text.slice(d.start!, d.start! + d.length!),
      category: ts.DiagnosticCategory[d.category],
      message: ts.flattenDiagnosticMessageText(d.messageText, "\n"),
    }));
}
