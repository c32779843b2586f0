#!/usr/bin/env node
/**
 * Write the committed `clauz3.lock` files of the fixtures with `clauz3 lock` (the built CLI;
 * `dist/` is rebuilt when stale): `fixtures/clauz3.lock` (the corpus project of
 * fixtures/tsconfig.json) and `fixtures/projects/<name>/clauz3.lock`, each written in a prepared
 * copy (with the stdlib layers its fixture.json asks for, as the tests build it) and copied back.
 *
 * Run it after reviewing a change to a fixture layer or to stdlib/; test/lock/fixtures.test.ts
 * fails until the locks are current.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { ensureBuilt, lockProject as lock, prepareProject, removeProject, ROOT } from "../fixtures/projects/project.mjs";

ensureBuilt();
process.stdout.write(lock(ROOT, ["-p", "fixtures/tsconfig.json"]));
const projects = path.join(ROOT, "fixtures/projects");
for (const name of fs.readdirSync(projects).sort()) {
  if (!fs.existsSync(path.join(projects, name, "tsconfig.json"))) continue;
  const dir = prepareProject(name, { prefix: "clauz3-lock-" });
  try {
    process.stdout.write(`fixtures/projects/${name}/${lock(dir)}`);
    fs.copyFileSync(path.join(dir, "clauz3.lock"), path.join(projects, name, "clauz3.lock"));
  } finally {
    removeProject(dir);
  }
}
