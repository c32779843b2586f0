#!/usr/bin/env node
/**
 * `clauz3`: the command-line surface. Exit codes: 0 ok, 1 a finding (or output differs), 2 usage
 * or configuration error; `clauz3 run` adds 3 rejected, 4 changes requested, 5 no decision yet
 * (docs/cli.md, docs/run.md). Nothing else.
 */
import { Command, CommanderError } from "commander";
import type { CliContext, CommandRegistration } from "./command";
import { CliError, EXIT, processIo, type Io } from "./io";
import catalog from "./commands/catalog";
import describe from "./commands/describe";
import libraries from "./commands/libraries";
import prove from "./commands/prove";
import check from "./commands/check";
import mergeReports from "./commands/merge-reports";
import lock from "./commands/lock";
import explain from "./commands/explain";
import run from "./commands/run";
import approvalService from "./commands/approval-service";
import policyCheck from "./commands/policy-check";
import init from "./commands/init";
import install from "./commands/install";
import skills from "./commands/skills";
import tools from "./commands/tools";
import { EXIT_CODES_HELP } from "./format/help";
import { toolInfo } from "./format/output";

/** Every subcommand, in help order. Adding one: import its module above and list it here. */
const COMMANDS: readonly CommandRegistration[] = [
  init,
  install,
  prove,
  check,
  mergeReports,
  lock,
  describe,
  libraries,
  catalog,
  skills,
  tools,
  explain,
  approvalService,
  run,
  policyCheck,
];

/** Run the CLI with `argv` (without `node` and the script); resolves to the exit code. */
export async function main(argv: readonly string[], io: Io = processIo): Promise<number> {
  const context: CliContext = { io, exitCode: EXIT.ok };
  const program = new Command("clauz3")
    .description("Static contracts for agent-authored TypeScript.")
    .version(toolInfo().version)
    .addHelpText("after", `\n${EXIT_CODES_HELP}\n\nRun \`clauz3 <command> --help\` for a command's options and examples.\n`)
    .exitOverride()
    .showHelpAfterError("(run `clauz3 --help` for usage)")
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr });
  for (const register of COMMANDS) register(program, context);
  try {
    await program.parseAsync([...argv], { from: "user" });
    return context.exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version end with exit code 0; every other parse error is a usage error.
      return error.exitCode === 0 && (error.code === "commander.helpDisplayed" || error.code === "commander.version" || error.code === "commander.help")
        ? EXIT.ok
        : EXIT.usage;
    }
    if (error instanceof CliError) {
      io.stderr(`${error.message}\n`);
      return error.exitCode;
    }
    io.stderr(`clauz3: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    return EXIT.usage;
  }
}

if (require.main === module) {
  // A crash outside `main` (a solver worker, say) would exit 1, which reads as "a finding": it is
  // an internal error, exit 2, like the ones `main` catches.
  const crashed = (error: unknown): void => {
    process.stderr.write(`clauz3: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`, () => process.exit(EXIT.usage));
  };
  process.on("uncaughtException", crashed);
  process.on("unhandledRejection", crashed);
  // A reader that stops early (`clauz3 check | head`) closes the pipe: nothing more can be said
  // there, and that is not clauz3 failing. The rest of the output is dropped and the command ends
  // with its own exit code (a finding is still 1 under `set -o pipefail`).
  process.stdout.on("error", (error: NodeJS.ErrnoException) => (error.code === "EPIPE" ? undefined : crashed(error)));
  // stderr is where a crash would be reported: when it fails otherwise, only the exit code is left.
  process.stderr.on("error", (error: NodeJS.ErrnoException) => (error.code === "EPIPE" ? undefined : process.exit(EXIT.usage)));
  void main(process.argv.slice(2)).then((code) => {
    // The warm Z3 keeps worker threads alive: exit explicitly once the output is flushed.
    process.stdout.write("", () => process.stderr.write("", () => process.exit(code)));
  });
}
