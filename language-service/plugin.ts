/**
 * The tsserver plugin factory: wraps a project's language service so that semantic diagnostics,
 * suggestion diagnostics and quick info include clauz3's (service.ts). Every other method is the
 * original. Every override computes the original result first and returns it unchanged when
 * clauz3 fails; the failure is logged through the project service's logger, never thrown into
 * tsserver.
 */
import type * as TS from "typescript";
import * as path from "node:path";
import { LOCK_FILE } from "../core/lock/format";
import { lockDirectoryFor } from "../core/lock/location";
import { Clauz3Service, type Clauz3LanguageServiceConfig } from "./service";

type TypeScript = typeof TS;
type Server = typeof TS.server;

/**
 * Test hook: a comma-separated list of overridden methods (or `*`) that throw inside clauz3's part,
 * to show that plain TypeScript results survive a plugin failure.
 */
export const FAULT_ENV = "CLAUZ3_LANGUAGE_SERVICE_FAULT";

function faultsFromEnv(): ReadonlySet<string> {
  const raw = process.env[FAULT_ENV];
  return new Set(raw ? raw.split(",").map((s) => s.trim()).filter(Boolean) : []);
}

let projects = 0;

/** `pluginModuleFactory({ typescript })`: what tsserver calls with its own TypeScript. */
export function init(modules: { typescript: TypeScript }): TS.server.PluginModule {
  const ts = modules.typescript;
  const services = new Set<Clauz3Service>();
  return {
    create(info: TS.server.PluginCreateInfo): TS.LanguageService {
      const logger = info.project.projectService.logger;
      const log = (message: string, error = false): void => {
        try {
          const line = `[clauz3/language-service] ${message}`;
          if (error) logger.msg(line, (ts.server as Server | undefined)?.Msg?.Err ?? ("Err" as TS.server.Msg));
          else logger.info(line);
        } catch {
          /* a logger failure must not reach tsserver either */
        }
      };
      const original = info.languageService;
      let service: Clauz3Service;
      try {
        service = new Clauz3Service(
          {
            ts,
            getProgram: () => original.getProgram(),
            refresh: () => info.project.refreshDiagnostics(),
            isOpen: (fileName) => info.project.getScriptInfo(fileName)?.isScriptOpen() ?? false,
            log: (message) => log(message, true),
            trace: (message) => log(message),
            id: `${++projects}:${info.project.getProjectName()}`,
            scriptVersion: (fileName) => info.project.projectService.getScriptInfo(fileName)?.getLatestVersion(),
          },
          info.config as Clauz3LanguageServiceConfig | undefined,
        );
        services.add(service);
        watchLock(info, service, log);
      } catch (error) {
        log(`could not start; TypeScript's results are shown unchanged: ${describe(error)}`, true);
        return original;
      }
      log(`enabled for ${info.project.getProjectName()}`);
      return wrapLanguageService(original, service, (method, error) => log(`${method} failed; TypeScript's result is shown unchanged: ${describe(error)}`, true));
    },
    onConfigurationChanged(config: unknown): void {
      for (const service of services) service.setConfig(config as Clauz3LanguageServiceConfig);
    },
  };
}

/**
 * Verify the trusted files again when `clauz3.lock` changes (`clauz3 lock` after a review): no
 * source file changes then, so tsserver would keep showing the old findings until the next edit.
 */
function watchLock(info: TS.server.PluginCreateInfo, service: Clauz3Service, log: (message: string, error?: boolean) => void): void {
  try {
    const lockPath = path.posix.join(lockDirectoryFor(info.project.getCompilerOptions(), info.project.getCurrentDirectory()), LOCK_FILE);
    info.serverHost.watchFile(lockPath, () => {
      try {
        service.lockChanged();
      } catch (error) {
        log(`re-verifying ${lockPath} failed: ${describe(error)}`, true);
      }
    }, 250);
  } catch (error) {
    // The lock is still verified with every new program; only the refresh after `clauz3 lock` waits for an edit.
    log(`cannot watch clauz3.lock: ${describe(error)}`, true);
  }
}

/** A language service whose diagnostics and quick info include clauz3's, falling back to the original's on failure. */
export function wrapLanguageService(
  original: TS.LanguageService,
  service: Clauz3Service,
  onError: (method: string, error: unknown) => void,
  faults: ReadonlySet<string> = faultsFromEnv(),
): TS.LanguageService {
  const proxy = Object.create(null) as Record<string, unknown>;
  for (const key of Object.keys(original) as (keyof TS.LanguageService)[]) {
    const value = original[key];
    proxy[key] = typeof value === "function" ? (...args: unknown[]) => (value as (...a: unknown[]) => unknown).apply(original, args) : value;
  }
  const fault = (method: string): void => {
    if (faults.has(method) || faults.has("*")) throw new Error(`${FAULT_ENV}: injected failure in ${method}`);
  };
  const ls = proxy as unknown as TS.LanguageService;

  /** Our part of a method on top of TypeScript's answer; on any error, TypeScript's answer alone. */
  const guarded = <T>(method: string, base: T, ours: () => T): T => {
    try {
      fault(method);
      return ours();
    } catch (error) {
      onError(method, error);
      return base;
    }
  };
  ls.getSemanticDiagnostics = (fileName) => {
    const base = original.getSemanticDiagnostics(fileName);
    return guarded("getSemanticDiagnostics", base, () => service.semanticDiagnostics(fileName, base));
  };
  ls.getSuggestionDiagnostics = (fileName) => {
    const base = original.getSuggestionDiagnostics(fileName);
    return guarded("getSuggestionDiagnostics", base, () => service.suggestionDiagnostics(fileName, base));
  };
  ls.getQuickInfoAtPosition = (fileName, position, ...rest: unknown[]) => {
    const base = (original.getQuickInfoAtPosition as (...a: unknown[]) => TS.QuickInfo | undefined)(fileName, position, ...rest);
    return guarded("getQuickInfoAtPosition", base, () => service.quickInfo(fileName, position, base));
  };
  return ls;
}

function describe(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}
