import type { Command } from "commander";
import type { Io } from "./io";

/** What every command gets: where to write, and where to put its exit code. */
export interface CliContext {
  readonly io: Io;
  exitCode: number;
}

/**
 * A command module's export: adds its subcommand to the program. `main.ts` lists these; adding a
 * command is one import and one entry in that list.
 */
export type CommandRegistration = (program: Command, context: CliContext) => void;

/** Wrap an action so its returned exit code reaches `main`. */
export function action<A extends unknown[]>(context: CliContext, run: (...args: A) => number | Promise<number>): (...args: A) => Promise<void> {
  return async (...args: A) => {
    context.exitCode = await run(...args);
  };
}
