/**
 * `clauz3 init [directory] [--force]`: make a folder a clauz3 project (cli/init/init.ts does the
 * work; docs/init-install.md). Prints what it created, updated and kept, then the next commands.
 * Exit 0 done (also when everything was already there), 1 when the installed library breaks layer
 * rules, 2 on usage or configuration errors (a malformed tsconfig.json or package.json: the file
 * and the field).
 */
import * as path from "node:path";
import type { Command } from "commander";
import { InitError, initProject } from "../init/init";
import { InstallError, InstallFindings } from "../install/install";
import { SAMPLE_FILE } from "../init/templates";
import { action, type CliContext } from "../command";
import { helpAfter } from "../format/help";
import { CliError, EXIT, printDiagnostics, terminalSafe } from "../io";

interface Options {
  readonly force?: boolean;
}

export default function register(program: Command, context: CliContext): void {
  program
    .command("init")
    .description("set up a project: tsconfig plugins, package.json scripts, editor setting, stdlib:filesystem, a sample agent program")
    .argument("[directory]", "the project folder (default: the current directory; created when missing)")
    .option("--force", "replace files and values of yours that differ from what init writes")
    .addHelpText("after", helpAfter([
      ["clauz3 init", "in an empty folder or an existing TypeScript project"],
      ["clauz3 init agents", "in ./agents (created when missing)"],
    ]))
    .action(
      action(context, (directory: string | undefined, opts: Options) => {
        const { io } = context;
        try {
          const outcome = initProject({ directory: directory === undefined ? io.cwd : path.resolve(io.cwd, directory), force: opts.force });
          const { dependencies, devDependencies } = outcome.missingPackages;
          const install = [
            ...(dependencies.length > 0 ? [`npm install ${dependencies.join(" ")}`] : []),
            ...(devDependencies.length > 0 ? [`npm install --save-dev ${devDependencies.join(" ")}`] : []),
          ];
          const next = [
            ...(install.length > 0 ? [`  ${install.join(" && ")}   # first: the packages this project lacks`] : []),
            `  npx clauz3 check     # prove ${SAMPLE_FILE} (and check the trusted layer)`,
            "  npm run build        # build with tspc: the same checks, as build errors",
            "  code .               # open it: broken guarantees are underlined (use the workspace TypeScript)",
          ];
          io.stdout(`${outcome.actions.map((a) => terminalSafe(a)).join("\n")}\n\nNext:\n${next.join("\n")}\n`);
          return EXIT.ok;
        } catch (error) {
          if (error instanceof InstallFindings) {
            printDiagnostics(error.ts, io, error.projectDir, error.diagnostics);
            io.stderr(`clauz3 init: ${terminalSafe(error.message)}\n`);
            return EXIT.failed;
          }
          if (error instanceof InitError) throw new CliError(`clauz3 init: ${terminalSafe(error.message)}`, EXIT.usage);
          if (error instanceof InstallError) throw new CliError(terminalSafe(error.message), error.exitCode);
          throw error;
        }
      }),
    );
}
