/**
 * The proof cache through the real CLI (docs/cache.md): `clauz3 check` writes final verdicts to
 * node_modules/.cache/clauz3/proofs and reads them back; `--no-cache` neither reads nor writes;
 * `--cache-location` moves it. That a verdict came from the cache is shown by planting a
 * well-formed entry whose message only the cache could have produced.
 */
import { spawnSync } from "node:child_process";
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { calculateJwkThumbprint, exportJWK, generateKeyPair } from "jose";
import { PROOF_CODES } from "../../core/rules";
import { CLI, clauz3, ensureBuilt, removeProject, ROOT, stdlibLayer, tempProject } from "../cli/helpers";

const PLAN = `import * as fs from "./tools/filesystem/trusted/contracts";
import { readFile } from "./tools/filesystem/trusted/effects";
export const guarantees = [fs.neverReadUnder("/secrets")];
export function main(path: string): void {
  if (path !== "" && !path.startsWith("/secrets")) readFile(path);
}
`;

const projects: string[] = [];
beforeAll(() => ensureBuilt());
afterAll(() => projects.forEach(removeProject));

const TSCONFIG = { compilerOptions: { target: "ES2022", module: "preserve", moduleResolution: "bundler", strict: true, skipLibCheck: true, noEmit: true, types: ["node"] }, include: ["**/*.ts"], exclude: ["node_modules"] };

/** A project with the stdlib filesystem layer (which needs @types/node) and PLAN. */
function project(): string {
  const dir = tempProject({ ...stdlibLayer(), "plan.ts": PLAN, "tsconfig.json": JSON.stringify(TSCONFIG) });
  fs.symlinkSync(path.join(ROOT, "node_modules/@types"), path.join(dir, "node_modules/@types"), "dir");
  projects.push(dir);
  return dir;
}

/** Every verdict entry under a cache directory (`xx/<key>.json`; timings.json beside them is not one). */
function entries(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => /^[0-9a-f]{2}[/\\][0-9a-f]+\.json$/.test(f))
    .map((f) => path.join(dir, f));
}

/** The proofs' timings kept in a cache directory (core/cache/timings.ts). */
function timings(dir: string): Record<string, number> | undefined {
  const file = path.join(dir, "timings.json");
  return fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, "utf8")).programs : undefined;
}

/** Rewrite every entry's messages to `marker`, keeping it well formed (its digest recomputed). */
function plant(files: readonly string[], marker: string): void {
  for (const file of files) {
    const entry = JSON.parse(fs.readFileSync(file, "utf8"));
    for (const r of entry.verdict.results) r.message = `${marker}: ${r.message}`;
    entry.digest = crypto.createHash("sha256").update(JSON.stringify(entry.verdict)).digest("hex");
    fs.writeFileSync(file, JSON.stringify(entry));
  }
}

describe("clauz3 check and the proof cache", () => {
  it("stores the verdict in the project's node_modules/.cache/clauz3/proofs and answers from it next time", () => {
    const dir = project();
    const first = clauz3(["check", "--json"], dir);
    expect(first.status).toBe(0);
    const stored = entries(path.join(dir, "node_modules/.cache/clauz3/proofs"));
    expect(stored).toHaveLength(1);
    plant(stored, "FROM THE CACHE");
    // The stored run of the first check would answer first (nothing it read changed): without it, the proofs come from their entries.
    fs.rmSync(path.join(dir, "node_modules/.cache/clauz3/proofs/runs"), { recursive: true });
    const second = clauz3(["check", "--json"], dir);
    expect(second.status).toBe(0);
    expect(JSON.parse(second.stdout).programs[0].results[0].message).toMatch(/^FROM THE CACHE: /);
    // The program changed: its entry is not looked up, the program is proved again.
    fs.writeFileSync(path.join(dir, "plan.ts"), PLAN.replace(`if (path !== "" && !path.startsWith("/secrets")) `, ""));
    const third = clauz3(["check", "--json"], dir);
    expect(third.status).toBe(1);
    expect(JSON.parse(third.stdout).programs[0].verdict).toBe("violated");
    expect(third.stdout).not.toMatch(/FROM THE CACHE/);
  });

  it("--no-cache neither reads nor writes its verdicts (the proofs' timings are kept)", () => {
    const dir = project();
    expect(clauz3(["check", "--no-cache"], dir).status).toBe(0);
    expect(entries(path.join(dir, "node_modules/.cache/clauz3/proofs"))).toEqual([]);
    expect(Object.keys(timings(path.join(dir, "node_modules/.cache/clauz3/proofs")) ?? {})).toEqual(["plan.ts"]);
    clauz3(["check"], dir);
    plant(entries(path.join(dir, "node_modules/.cache/clauz3/proofs")), "FROM THE CACHE");
    const bypassed = clauz3(["check", "--no-cache", "--json"], dir);
    expect(bypassed.status).toBe(0);
    expect(bypassed.stdout).not.toMatch(/FROM THE CACHE/);
  });

  it("--cache-location moves it, for check and prove alike", () => {
    const dir = project();
    expect(clauz3(["prove", "plan.ts", "--cache-location", "ci-cache"], dir).status).toBe(0);
    expect(entries(path.join(dir, "ci-cache"))).toHaveLength(1);
    expect(entries(path.join(dir, "node_modules/.cache/clauz3/proofs"))).toEqual([]);
    expect(clauz3(["check", "--cache-location", "ci-cache"], dir).status).toBe(0);
    const blank = clauz3(["check", "--cache-location", " "], dir);
    expect(blank.status).toBe(2);
    expect(blank.stderr).toMatch(/--cache-location needs a directory/);
  });

  it("clauz3 run never reads it: an entry planted to say proved does not make a violated program runnable", async () => {
    const dir = project();
    fs.writeFileSync(path.join(dir, "plan.ts"), PLAN.replace(`if (path !== "" && !path.startsWith("/secrets")) `, ""));
    expect(clauz3(["check"], dir).status).toBe(1);
    const stored = entries(path.join(dir, "node_modules/.cache/clauz3/proofs"));
    expect(stored).toHaveLength(1);
    for (const file of stored) {
      const entry = JSON.parse(fs.readFileSync(file, "utf8"));
      entry.verdict.verdict = "proved";
      for (const r of entry.verdict.results) Object.assign(r, { verdict: "proved", code: PROOF_CODES.proved, message: "proved (planted)" });
      entry.digest = crypto.createHash("sha256").update(JSON.stringify(entry.verdict)).digest("hex");
      fs.writeFileSync(file, JSON.stringify(entry));
    }
    // check believes its cache (the working tree's trust) ...
    expect(JSON.parse(clauz3(["check", "--json"], dir).stdout).programs[0].verdict).toBe("proved");
    // ... run proves what it would run itself.
    const operator = fs.mkdtempSync(path.join(os.tmpdir(), "clauz3-operator-"));
    projects.push(operator);
    const { publicKey } = await generateKeyPair("EdDSA", { extractable: true });
    const jwk = await exportJWK(publicKey);
    const keys = path.join(operator, "keys.json");
    fs.writeFileSync(keys, JSON.stringify({ keys: [{ kty: "OKP", crv: "Ed25519", x: jwk.x, kid: await calculateJwkThumbprint(jwk), alg: "EdDSA", use: "sig" }], revoked: [] }), { mode: 0o600 });
    const r = spawnSync(process.execPath, [CLI, "run", "plan.ts", "--inputs", JSON.stringify(["/secrets/key"]), "--json"], {
      cwd: dir,
      encoding: "utf8",
      env: { ...process.env, CLAUZ3_APPROVAL_SERVICE: "http://127.0.0.1:9", CLAUZ3_APPROVAL_KEYS: keys, NO_COLOR: "1" },
    });
    expect(r.stderr).toBe("");
    expect(r.status).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ outcome: "not-proved" });
  });
});
