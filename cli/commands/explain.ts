/**
 * `clauz3 explain <code>`: a rule's documentation and examples from the rule table
 * (core/rules.ts), by code (`TS93003`, `93003`) or id (`event-field-argument`); without a code,
 * the list of codes.
 */
import type { Command } from "commander";
import { action, type CliContext } from "../command";
import { withHelp } from "../format/help";
import { ALL_RULES, explainText, findRule } from "../format/rules";
import { CliError, EXIT } from "../io";

export default function register(program: Command, context: CliContext): void {
  const command = program
    .command("explain")
    .description("print a rule's documentation and examples (TS93003, 93003 or its id); without a code, list the codes")
    .argument("[code]", "a clauz3 code or rule id");
  withHelp(command, [
    ["clauz3 explain TS93003", "what the rule asks for, with a valid and an invalid example"],
    ["clauz3 explain 93101", "what a violated guarantee means"],
    ["clauz3 explain", "every code with its one-line summary"],
  ]);
  command.action(
    action(context, (code: string | undefined) => {
      const { io } = context;
      if (code === undefined) {
        io.stdout(`${ALL_RULES.map((r) => `${r.name}  ${r.id.padEnd(26)} ${r.doc}`).join("\n")}\n`);
        return EXIT.ok;
      }
      const rule = findRule(code);
      if (!rule) throw new CliError(`clauz3: ${code} is not a clauz3 code (run \`clauz3 explain\` for the list; TypeScript's own codes are documented by TypeScript).`, EXIT.usage);
      io.stdout(explainText(rule));
      return EXIT.ok;
    }),
  );
}
