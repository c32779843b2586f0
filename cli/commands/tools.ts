/**
 * `clauz3 tools [--json] [--project] [--library id]`: what `clauz3 skills` writes, printed for an
 * agent at run time: each library's tools, contracts and proved sample (JSON:
 * schema/tools.schema.json, docs/skills.md).
 */
import type { Command } from "commander";
import { renderSkill, skillJson, TOOLS_FORMAT } from "../../core/skills";
import { action, type CliContext } from "../command";
import { helpAfter } from "../format/help";
import { EXIT } from "../io";
import { skillsOf } from "../skills";
import { LIBRARY_OPTION, projectLibraries } from "./skills";

interface Options {
  readonly project?: string;
  readonly library?: string[];
  readonly json?: boolean;
}

export default function register(program: Command, context: CliContext): void {
  program
    .command("tools")
    .description("print the tools and contracts an agent program may use, with a proved sample per library")
    .option("--json", "print JSON (schema/tools.schema.json)")
    .option("-p, --project <tsconfig>", "the project's tsconfig.json (default: found from the current directory)")
    .option(...LIBRARY_OPTION)
    .addHelpText("after", helpAfter([
      ["clauz3 tools", "every library's skill, as SKILL.md text"],
      ["clauz3 tools --json", "the same as one JSON document"],
    ]))
    .action(
      action(context, async (opts: Options) => {
        const { io } = context;
        const { project, libraries } = projectLibraries("tools", io, opts);
        const skills = await skillsOf(project, libraries);
        if (opts.json) io.stdout(`${JSON.stringify({ format: TOOLS_FORMAT, libraries: skills.map(skillJson) }, null, 2)}\n`);
        else io.stdout(skills.map(renderSkill).join("\n"));
        return skills.some((s) => "problem" in s.sample) ? EXIT.failed : EXIT.ok;
      }),
    );
}
