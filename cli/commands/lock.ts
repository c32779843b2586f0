/**
 * `clauz3 lock [--project tsconfig.json]`: pin the project's trusted layer. Writes `clauz3.lock`
 * next to the project's tsconfig.json: every trusted file's SHA-256 (of its bytes on disk) and each
 * library's id, origin and revision (docs/lock.md). It is the only command that writes the lock;
 * `check`, `prove`, `tspc` and the editor verify it. Run it after reviewing a change to the trusted
 * layer: it prints what it added, changed and removed. Exit 0 when written, 2 on usage or
 * configuration errors.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { Command } from "commander";
import { LockError, readLockIfPresent, serializeLock, type Lock } from "../../core/lock/format";
import { lockDirectoryOf, lockPathOf } from "../../core/lock/location";
import { gitOrContentRevision } from "../../core/lock/revision";
import { lockOfProgram } from "../../core/lock/write";
import { action, type CliContext } from "../command";
import { helpAfter } from "../format/help";
import { CliError, EXIT, terminalSafe } from "../io";
import { loadProject, noteDefaults } from "../project";

interface Options {
  readonly project?: string;
}

/** The previous lock, or why it cannot be compared (missing, invalid). */
function previousLock(lockPath: string): { lock: Lock } | { problem: string } | undefined {
  try {
    const lock = readLockIfPresent(lockPath);
    return lock ? { lock } : undefined;
  } catch (error) {
    if (error instanceof LockError) return { problem: `${error.field} ${error.problem}` };
    throw error;
  }
}

/** The lock with each library's `installed` record carried over from the previous lock (`clauz3 install` wrote it). */
function keepInstalled(lock: Lock, before: { lock: Lock } | { problem: string } | undefined): Lock {
  if (!before || !("lock" in before)) return lock;
  const libraries = new Map(lock.libraries);
  for (const [dir, entry] of libraries) {
    const installed = before.lock.libraries.get(dir)?.installed;
    if (installed) libraries.set(dir, { ...entry, installed });
  }
  return { ...lock, libraries };
}

/** Write through a temporary file in the same directory, so a reader never sees half a lock. */
function writeAtomically(file: string, text: string): void {
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    fs.writeFileSync(temporary, text);
    fs.renameSync(temporary, file);
  } catch (error) {
    fs.rmSync(temporary, { force: true });
    throw new CliError(`clauz3 lock: cannot write ${file}: ${error instanceof Error ? error.message : String(error)}`, EXIT.usage);
  }
}

export default function register(program: Command, context: CliContext): void {
  program
    .command("lock")
    .description("pin the trusted layer: write clauz3.lock (each trusted file's sha256, each library's origin and revision)")
    .option("-p, --project <tsconfig>", "the project's tsconfig.json (default: found from the current directory)")
    .addHelpText("after", helpAfter([
      ["clauz3 lock", "after reviewing the trusted files: pin them in clauz3.lock"],
      ["clauz3 lock -p packages/agent", "the project of packages/agent/tsconfig.json"],
    ]))
    .action(
      action(context, (opts: Options) => {
        const { io } = context;
        const project = loadProject({ cwd: io.cwd, project: opts.project });
        noteDefaults(project, io);
        const { program: tsProgram, layer } = project;
        const lockPath = lockPathOf(tsProgram);
        const before = previousLock(lockPath);
        const lock = keepInstalled(lockOfProgram(tsProgram, layer.isTrusted, lockDirectoryOf(tsProgram), gitOrContentRevision), before);
        const text = serializeLock(lock);
        writeAtomically(lockPath, text);

        const shown = path.relative(io.cwd, lockPath).replace(/\\/g, "/") || lockPath;
        const lines = [`${shown}: ${lock.files.size} trusted file${lock.files.size === 1 ? "" : "s"} of ${lock.libraries.size} librar${lock.libraries.size === 1 ? "y" : "ies"} pinned`];
        if (before && "problem" in before) lines.push(`  replaced a lock that was not valid (${before.problem})`);
        const old = before && "lock" in before ? before.lock.files : new Map<string, { sha256: string }>();
        const changes: string[] = [];
        for (const [file, entry] of lock.files) {
          const was = old.get(file);
          if (!was) changes.push(`added: ${file}`);
          else if (was.sha256 !== entry.sha256) changes.push(`changed: ${file}`);
        }
        for (const file of old.keys()) if (!lock.files.has(file)) changes.push(`removed: ${file}`);
        const byPath = (line: string): string => line.slice(line.indexOf(": ") + 2);
        lines.push(...changes.sort((a, b) => (byPath(a) < byPath(b) ? -1 : byPath(a) > byPath(b) ? 1 : 0)).map((c) => `  ${c}`));
        if (layer.findings.some((f) => layer.isTrusted(f.file))) {
          lines.push("  note: the trusted layer breaks layer rules; programs that reach those files stay refused (run `clauz3 check`).");
        }
        io.stdout(`${lines.map(terminalSafe).join("\n")}\n`);
        return EXIT.ok;
      }),
    );
}
