/**
 * `clauz3 libraries`: the trusted libraries of a project with their manifests' titles, badges,
 * summaries and setup requirements (dependencies and requirements).
 */
import * as path from "node:path";
import type { Command } from "commander";
import { displayTitle, type Library } from "../../core/manifest";
import { action, type CliContext } from "../command";
import { helpAfter } from "../format/help";
import { EXIT, terminalSafe } from "../io";
import { checkManifests, loadProject, noteDefaults, type Project } from "../project";

interface Options {
  readonly json?: boolean;
  readonly project?: string;
}

function rel(project: Project, file: string): string {
  return path.relative(project.projectDir, file).replace(/\\/g, "/") || ".";
}

function summaryOf(project: Project, l: Library) {
  const ids = new Set(project.libraries.map((x) => x.id));
  const tools = [...project.layer.model.tools.values()].filter((t) => l.files.some((f) => f.fileName === t.fileName));
  const contracts = [...project.layer.model.contracts.values()].filter((c) => l.files.some((f) => f.fileName === c.fileName));
  return {
    id: l.id,
    domain: l.domain,
    title: l.title,
    badge: l.manifest?.badge ?? null,
    summary: l.manifest?.summary ?? null,
    version: l.version,
    directory: rel(project, l.root),
    manifest: l.manifestSha256 !== undefined ? rel(project, l.manifestPath) : null,
    manifestSha256: l.manifestSha256 ?? null,
    dependencies: (l.manifest?.dependencies ?? []).map((id) => ({ id, found: ids.has(id) })),
    requirements: l.manifest?.requirements ?? [],
    effects: tools.length,
    contracts: contracts.length,
  };
}

export default function register(program: Command, context: CliContext): void {
  program
    .command("libraries")
    .description("list the trusted libraries of the project with their summaries and setup requirements")
    .option("--json", "print JSON")
    .option("-p, --project <tsconfig>", "the project's tsconfig.json (default: found from the current directory)")
    .addHelpText("after", helpAfter([
      ["clauz3 libraries", "each trusted library: title, badge, summary, setup requirements"],
      ["clauz3 libraries --json", "the same as JSON"],
    ]))
    .action(
      action(context, (opts: Options) => {
        const { io } = context;
        const project = loadProject({ cwd: io.cwd, project: opts.project });
        noteDefaults(project, io);
        checkManifests(project, project.libraries);
        const list = project.libraries.map((l) => summaryOf(project, l));
        if (opts.json) {
          io.stdout(`${JSON.stringify({ libraries: list }, null, 2)}\n`);
          return EXIT.ok;
        }
        if (list.length === 0) {
          io.stdout("No trusted libraries (no source file has a `trusted` directory segment or matches trustedRoots).\n");
          return EXIT.ok;
        }
        const blocks = project.libraries.map((l, i) => {
          const s = list[i]!;
          const lines = [`${s.id}  ${displayTitle(l)}${s.version !== "0.0.0" ? `  (version ${s.version})` : ""}`];
          lines.push(`  ${s.summary ?? `(no manifest: write ${rel(project, l.manifestPath)} with a title and a summary)`}`);
          lines.push(`  ${s.directory}: ${s.effects} effect${s.effects === 1 ? "" : "s"}, ${s.contracts} contract${s.contracts === 1 ? "" : "s"}`);
          if (s.dependencies.length === 0 && s.requirements.length === 0) lines.push("  setup: nothing required");
          for (const d of s.dependencies) lines.push(`  setup: depends on ${d.id}${d.found ? "" : " (not among this project's trusted libraries)"}`);
          for (const r of s.requirements) lines.push(`  setup: ${r.kind} ${r.name}${r.description ? ` — ${r.description}` : ""}`);
          return lines.map(terminalSafe).join("\n");
        });
        io.stdout(`${blocks.join("\n\n")}\n`);
        return EXIT.ok;
      }),
    );
}
