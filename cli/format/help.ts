/** The exit codes and examples every command's `--help` ends with (the same table as docs/cli.md). */
import type { Command } from "commander";

export const EXIT_CODES_HELP = `Exit codes:
  0  nothing wrong (warnings alone exit 0 unless --max-warnings says otherwise)
  1  a finding: a type error, a rule or manifest finding, an unpinned trusted file, a violated or refused program
  2  usage or configuration: a bad option or argument, an unreadable or invalid tsconfig or lock, an unresolvable clauz3
  (never anything else; \`clauz3 run\` adds 3, 4 and 5: see its --help)`;

/** Examples (`[command line, what it does]`) and the exit codes, as the end of a command's help. */
export function helpAfter(examples: readonly (readonly [string, string])[]): string {
  const width = Math.max(...examples.map(([c]) => c.length));
  const lines = examples.map(([c, what]) => `  $ ${c.padEnd(width)}  # ${what}`);
  return `\nExamples:\n${lines.join("\n")}\n\n${EXIT_CODES_HELP}\n`;
}

/** Append examples and the exit codes to a command's help. */
export function withHelp(command: Command, examples: readonly (readonly [string, string])[]): Command {
  return command.addHelpText("after", helpAfter(examples));
}
