/**
 * `clauz3 skills [--out dir] [--project] [--library id]`: one agent-readable `SKILL.md` per trusted
 * library (cli/skills.ts, docs/skills.md): tools, contracts and a sample program the prover proved.
 * Exit 1 when a library has no proved sample (its SKILL.md says why).
 */
import * as path from "node:path";
import type { Command } from "commander";
import type { Library } from "../../core/manifest";
import { action, type CliContext } from "../command";
import { helpAfter } from "../format/help";
import { CliError, EXIT } from "../io";
import { checkManifests, loadProject, noteDefaults, type Project } from "../project";
import { warmUpSolver } from "../proofs";
import type { Skill } from "../../core/skills";
import { writeSkills } from "../skills";

interface Options {
  readonly project?: string;
  readonly library?: string[];
  readonly out?: string;
}

export const LIBRARY_OPTION = ["-l, --library <id>", "only this library (repeatable; `stdlib:filesystem`, or a domain name)", (v: string, prev: string[] = []) => [...prev, v]] as const;

/** The libraries `--library` names (default all); a name no library has is a usage error. */
export function selectLibraries(command: string, project: Project, ids: readonly string[] | undefined): readonly Library[] {
  const all = project.libraries;
  if (all.length === 0) throw new CliError(`clauz3 ${command}: the project has no trusted library (no source file under a \`trusted\` directory, or matching trustedRoots).`, EXIT.usage);
  if (!ids) return all;
  const unknown = ids.filter((id) => !all.some((l) => l.id === id || l.domain === id));
  if (unknown.length > 0) throw new CliError(`clauz3 ${command}: no library ${unknown.join(", ")} in this project (libraries: ${all.map((l) => l.id).join(", ")}).`, EXIT.usage);
  return all.filter((l) => ids.includes(l.id) || ids.includes(l.domain));
}

/** The project and the libraries `--library` selects, their manifests checked (skills, tools, install --skills). */
export function projectLibraries(command: string, io: CliContext["io"], opts: { readonly project?: string; readonly library?: readonly string[] }): { project: Project; libraries: readonly Library[] } {
  warmUpSolver();
  const project = loadProject({ cwd: io.cwd, project: opts.project });
  noteDefaults(project, io);
  const libraries = selectLibraries(command, project, opts.library);
  checkManifests(project, libraries);
  return { project, libraries };
}

export default function register(program: Command, context: CliContext): void {
  program
    .command("skills")
    .description("write an agent-readable SKILL.md per trusted library: tools, contracts and a proved sample program")
    .option("-p, --project <tsconfig>", "the project's tsconfig.json (default: found from the current directory)")
    .option(...LIBRARY_OPTION)
    .option("-o, --out <dir>", "write <dir>/<domain>/SKILL.md (default: skills/ in the project directory)")
    .addHelpText("after", helpAfter([
      ["clauz3 skills", "skills/<domain>/SKILL.md for every trusted library"],
      ["clauz3 skills --out .claude/skills", "where an agent looks for skills"],
      ["clauz3 skills --library stdlib:filesystem", "one library"],
    ]))
    .action(
      action(context, async (opts: Options) => {
        const { io } = context;
        const { project, libraries } = projectLibraries("skills", io, opts);
        const outDir = opts.out !== undefined ? path.resolve(io.cwd, opts.out) : path.join(project.projectDir, "skills");
        const { skills, files } = await writeSkills(project, outDir, libraries);
        return reportSkills(io, skills, files);
      }),
    );
}

/** One line per SKILL.md written; exit 1 when a library got no proved sample (its SKILL.md says why). */
export function reportSkills(io: CliContext["io"], skills: readonly Skill[], files: readonly string[]): number {
  let missing = 0;
  skills.forEach((s, i) => {
    const shown = path.relative(io.cwd, files[i]!).replace(/\\/g, "/") || files[i]!;
    if ("problem" in s.sample) {
      missing++;
      io.stderr(`wrote ${shown} without a sample program: ${s.sample.problem}\n`);
    } else {
      io.stderr(`wrote ${shown} (sample: ${s.sample.tool} under ${s.sample.contract}, proved)\n`);
    }
  });
  return missing > 0 ? EXIT.failed : EXIT.ok;
}
