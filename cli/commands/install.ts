/**
 * `clauz3 install <source> [--force]`: copy a library into the project's `tools/<domain>/` from
 * `stdlib:<name>`, a folder holding `tools/<domain>/`, or a git URL (`@<ref>` optional), check the
 * layer rules on it and pin it in `clauz3.lock` with its origin (docs/init-install.md). Exit 0
 * installed (or already there), 1 when the library breaks layer rules (nothing is installed), 2 on
 * usage or configuration errors (an existing different library without --force, a bad source).
 * `--skills` also writes each installed library's SKILL.md (exit 1 when one has no proved sample).
 */
import * as path from "node:path";
import type { Command } from "commander";
import { install, InstallError, InstallFindings } from "../install/install";
import { action, type CliContext } from "../command";
import { helpAfter } from "../format/help";
import { CliError, EXIT, printDiagnostics, terminalSafe } from "../io";
import { writeSkills } from "../skills";
import { projectLibraries, reportSkills } from "./skills";

interface Options {
  readonly force?: boolean;
  readonly project?: string;
  readonly skills?: boolean | string;
}

export default function register(program: Command, context: CliContext): void {
  program
    .command("install")
    .description("copy a trusted library into tools/<domain>/, check its layer rules and pin it in clauz3.lock")
    .argument("<source>", "stdlib:<name>, a folder holding tools/<domain>/, or a git URL (optionally @<ref>)")
    .option("--force", "replace a library of the same name that differs")
    .option("-p, --project <tsconfig>", "the project's tsconfig.json (default: found from the current directory)")
    .option("--skills [dir]", "also write an agent-readable SKILL.md for each installed library (default: skills/ in the project directory; docs/skills.md)")
    .addHelpText("after", helpAfter([
      ["clauz3 install stdlib:filesystem", "the standard filesystem tools, into tools/filesystem/"],
      ["clauz3 install ../shared-tools", "every tools/<domain>/ of a folder"],
      ["clauz3 install stdlib:filesystem --skills .claude/skills", "and write its SKILL.md where an agent looks for skills"],
      ["clauz3 install https://github.com/acme/tools.git@v1.2.0", "a git repository's tools/ at a tag (cached by commit)"],
    ]))
    .action(
      action(context, async (sourceText: string, opts: Options) => {
        const { io } = context;
        try {
          const outcome = install({ source: sourceText, cwd: io.cwd, project: opts.project, force: opts.force });
          const lock = path.relative(io.cwd, outcome.lockPath).replace(/\\/g, "/") || outcome.lockPath;
          const lines = outcome.libraries.map((l) => {
            const what = l.action === "unchanged" ? "already installed, unchanged" : l.action;
            return `${l.directory}: ${what} from ${l.installed.source} (${l.installed.revision}); ${l.pinned} trusted file${l.pinned === 1 ? "" : "s"} pinned in ${lock}`;
          });
          io.stdout(`${lines.map(terminalSafe).join("\n")}\n`);
          if (opts.skills === undefined || opts.skills === false) return EXIT.ok;
          return await installedSkills(io, opts, outcome.libraries.map((l) => l.domain));
        } catch (error) {
          if (error instanceof InstallFindings) {
            printDiagnostics(error.ts, io, error.projectDir, error.diagnostics);
            io.stderr(`${terminalSafe(error.message)}\n`);
            return EXIT.failed;
          }
          if (error instanceof InstallError) throw new CliError(terminalSafe(error.message), error.exitCode);
          throw error;
        }
      }),
    );
}

/** `--skills`: a SKILL.md for each library just installed (the same as `clauz3 skills --library <domain>`). */
async function installedSkills(io: CliContext["io"], opts: Options, domains: readonly string[]): Promise<number> {
  const { project, libraries } = projectLibraries("install --skills", io, { project: opts.project, library: domains });
  const outDir = typeof opts.skills === "string" ? path.resolve(io.cwd, opts.skills) : path.join(project.projectDir, "skills");
  const { skills, files } = await writeSkills(project, outDir, libraries);
  return reportSkills(io, skills, files);
}
