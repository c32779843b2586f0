/**
 * `clauz3 catalog [--project] [--library id] [--out file] [--check] [--json-schema]`: the LinkML
 * catalog (JSON) of the trusted libraries, generated from their TypeScript without executing them.
 * Without `--out` it prints to stdout; `--check [file]` compares with the checked-in file (default:
 * `catalog.json` beside the library's manifest, or `clauz3.catalog.json` in the project directory
 * for several libraries) and exits 1 with a summary when it differs.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { Command } from "commander";
import { buildCatalog, catalogDifferences, CatalogError, instanceSchema, linkmlSchema, stableStringify } from "../../core/catalog";
import type { Library } from "../../core/manifest";
import { action, type CliContext } from "../command";
import { helpAfter } from "../format/help";
import { CliError, EXIT, findingDiagnostics, printDiagnostics } from "../io";
import { checkManifests, loadProject, noteDefaults } from "../project";

interface Options {
  readonly project?: string;
  readonly library?: string[];
  readonly out?: string;
  readonly check?: boolean | string;
  readonly jsonSchema?: boolean;
}

function defaultFile(projectDir: string, libraries: readonly Library[], jsonSchema: boolean): string {
  const name = jsonSchema ? "contract-instance.schema.json" : "catalog.json";
  return libraries.length === 1 ? path.join(libraries[0]!.root, name) : path.join(projectDir, `clauz3.${name}`);
}

export default function register(program: Command, context: CliContext): void {
  program
    .command("catalog")
    .description("generate the LinkML catalog (JSON) of the trusted libraries from their source")
    .option("-p, --project <tsconfig>", "the project's tsconfig.json (default: found from the current directory)")
    .option("-l, --library <id>", "only this library (repeatable; `stdlib:filesystem`, or a domain name)", (v: string, prev: string[] = []) => [...prev, v])
    .option("-o, --out <file>", "write the catalog to this file instead of stdout")
    .option("--check [file]", "compare with the checked-in catalog (this file, --out, or the default file) and exit 1 when it differs")
    .option("--json-schema", "export a JSON Schema for contract instances instead of the LinkML schema")
    .addHelpText("after", helpAfter([
      ["clauz3 catalog --out catalog.json", "write the LinkML catalog of every trusted library"],
      ["clauz3 catalog --check", "exit 1 when a checked-in catalog.json differs from the source"],
      ["clauz3 catalog --json-schema", "a JSON Schema of the contract instances describe prints"],
    ]))
    .action(
      action(context, (opts: Options) => {
        const { io } = context;
        const project = loadProject({ cwd: io.cwd, project: opts.project });
        noteDefaults(project, io);
        const { ts, layer } = project;
        let libraries = project.libraries;
        if (opts.library) {
          const unknown = opts.library.filter((id) => !libraries.some((l) => l.id === id));
          if (unknown.length > 0) {
            throw new CliError(`clauz3 catalog: no library ${unknown.join(", ")} in this project (libraries: ${libraries.map((l) => l.id).join(", ") || "none"}).`, EXIT.usage);
          }
          libraries = libraries.filter((l) => opts.library!.includes(l.id));
        }
        if (libraries.length === 0) {
          throw new CliError("clauz3 catalog: the project has no trusted library (no source file under a `trusted` directory, or matching trustedRoots).", EXIT.usage);
        }
        checkManifests(project, libraries);
        const files = new Set(libraries.flatMap((l) => l.files.map((f) => f.fileName)));
        const findings = layer.findings.filter((f) => files.has(f.file.fileName));
        if (findings.length > 0) {
          printDiagnostics(ts, io, project.projectDir, findingDiagnostics(ts, findings));
          io.stderr(`clauz3 catalog: the trusted layer breaks ${findings.length} rule${findings.length === 1 ? "" : "s"}; no catalog generated.\n`);
          return EXIT.failed;
        }
        let text: string;
        try {
          const catalog = buildCatalog(ts, project.program, layer.model, libraries);
          text = stableStringify(opts.jsonSchema ? instanceSchema(catalog) : linkmlSchema(catalog));
        } catch (error) {
          if (!(error instanceof CatalogError)) throw error;
          io.stderr(`clauz3 catalog: cannot generate the catalog:\n${error.problems.map((p) => `  ${p}`).join("\n")}\n`);
          return EXIT.failed;
        }
        const given = typeof opts.check === "string" ? opts.check : opts.out;
        const target = given !== undefined ? path.resolve(io.cwd, given) : opts.check ? defaultFile(project.projectDir, libraries, opts.jsonSchema === true) : undefined;
        const shown = target ? path.relative(io.cwd, target).replace(/\\/g, "/") || target : "";
        if (opts.check) {
          const regenerate = `clauz3 catalog${opts.project ? ` --project ${opts.project}` : ""}${(opts.library ?? []).map((l) => ` --library ${l}`).join("")}${opts.jsonSchema ? " --json-schema" : ""} --out ${shown}`;
          if (!fs.existsSync(target!)) {
            io.stderr(`clauz3 catalog --check: ${shown} does not exist. Generate it with \`${regenerate}\`.\n`);
            return EXIT.failed;
          }
          const differences = catalogDifferences(fs.readFileSync(target!, "utf8"), text);
          if (differences.length === 0) {
            io.stdout(`${shown} is current.\n`);
            return EXIT.ok;
          }
          io.stderr(`clauz3 catalog --check: ${shown} differs from the source:\n${differences.map((d) => `  ${d}`).join("\n")}\nRegenerate it with \`${regenerate}\` and review the change.\n`);
          return EXIT.failed;
        }
        if (target) {
          fs.mkdirSync(path.dirname(target), { recursive: true });
          fs.writeFileSync(target, text, "utf8");
          io.stderr(`wrote ${shown}\n`);
        } else {
          io.stdout(text);
        }
        return EXIT.ok;
      }),
    );
}
