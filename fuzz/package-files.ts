/**
 * The packages an in-memory project needs besides TypeScript's libs: the clauz3 runtime sources
 * mounted as `node_modules/clauz3`, and `@types/node` (Node's globals, `console` among them, and
 * `node:fs` for layers that use it). Shared by the fuzzer's project and the tests' projects.
 */
import * as fs from "node:fs";
import * as path from "node:path";

const cache = new Map<string, ReadonlyMap<string, string>>();

/** File path in the in-memory project → text, read once per repository root. */
export function packageFiles(root: string): ReadonlyMap<string, string> {
  const known = cache.get(root);
  if (known) return known;
  const files = new Map<string, string>();
  const runtime = path.join(root, "runtime");
  for (const name of fs.readdirSync(runtime)) files.set(`/node_modules/clauz3/runtime/${name}`, fs.readFileSync(path.join(runtime, name), "utf8"));
  const exp = (m: string) => ({ types: `./runtime/${m}.ts`, default: `./runtime/${m}.ts` });
  files.set("/node_modules/clauz3/package.json", JSON.stringify({ name: "clauz3", exports: { ".": exp("index"), "./events": exp("events"), "./spec": exp("spec") } }));
  const typesDir = path.join(root, "node_modules/@types/node");
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith(".d.ts") || entry.name === "package.json") {
        files.set(`/node_modules/@types/node/${path.relative(typesDir, full).replace(/\\/g, "/")}`, fs.readFileSync(full, "utf8"));
      }
    }
  };
  walk(typesDir);
  cache.set(root, files);
  return files;
}
