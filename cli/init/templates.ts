/**
 * What `clauz3 init` writes into a project that lacks it: a tsconfig.json, the two plugin entries,
 * the package.json scripts, the editor setting, and one agent program that is proved.
 */

/** The `tspc` transformer entry (build errors, proofs) and the tsserver plugin entry (squiggles). */
export const TRANSFORM_PLUGIN = { transform: "clauz3/plugin" } as const;
export const LANGUAGE_SERVICE_PLUGIN = { name: "clauz3/language-service" } as const;

/** The package.json scripts init adds. */
export const SCRIPTS: Readonly<Record<string, string>> = {
  check: "clauz3 check",
  build: "tspc -p tsconfig.json",
};

/** VS Code uses the project's TypeScript, so tsserver loads the plugins of tsconfig.json. */
export const VSCODE_SETTINGS: Readonly<Record<string, unknown>> = {
  "typescript.tsdk": "node_modules/typescript/lib",
  "typescript.enablePromptUseWorkspaceTsdk": true,
};

export const SAMPLE_FILE = "src/agent.ts";

/** A new project's tsconfig.json (CommonJS or ES modules follow package.json's "type" under nodenext). */
export const TSCONFIG = `{
  // Written by \`clauz3 init\`. The plugins: "clauz3/plugin" makes \`tspc\` report layer rules and
  // prove every agent program; "clauz3/language-service" shows the same in the editor.
  "compilerOptions": {
    "target": "ES2022",
    "module": "nodenext",
    "moduleResolution": "nodenext",
    "lib": ["ES2022"],
    "types": ["node"],
    "strict": true,
    "skipLibCheck": true,
    "rootDir": ".",
    "outDir": "dist",
    "plugins": [
      { "transform": "clauz3/plugin" },
      { "name": "clauz3/language-service" }
    ]
  },
  "include": ["src", "tools"]
}
`;

/**
 * The sample agent program: it reads one file and writes under \`out/\`, and promises exactly
 * that. The guarantees are proved; change the written path to \`"notes/summary.md"\` and
 * \`onlyWritesFilesUnder\` is underlined.
 */
export const SAMPLE = `/**
 * An agent program (written by \`clauz3 init\`): plain TypeScript that calls trusted tools and
 * lists the guarantees it keeps. \`npx clauz3 check\` proves them. Try writing to
 * "notes/summary.md" instead: the guarantee \`onlyWritesFilesUnder\` is broken, and the editor and
 * \`npm run build\` say where.
 */
import { DirectoryPath, FilePath } from "clauz3";
import { onlyReadsFiles, onlyWritesFilesUnder, writesAtMost } from "../tools/filesystem/trusted/contracts.js";
import { readFile, writeFile } from "../tools/filesystem/trusted/effects.js";

export const guarantees = [
  onlyReadsFiles([FilePath("notes/todo.md")]),
  onlyWritesFilesUnder(DirectoryPath("out")),
  writesAtMost(1),
];

export function main(): void {
  const todo = readFile("notes/todo.md");
  writeFile("out/summary.md", "# Summary\\n\\n" + todo);
}
`;
