/**
 * A small client of a real tsserver process, for the language-service e2e tests and the bench.
 *
 * Projects are written to fresh temporary directories whose `node_modules/clauz3` links to this
 * checkout (next to links to its `typescript` and `@types/node`), so tsserver loads the plugin by
 * package name, exactly as in an installed project. tsserver is the checkout's
 * `typescript/lib/tsserver.js`, started with `--pluginProbeLocations <project>` and speaking the
 * JSON protocol over stdio (requests as JSON lines on stdin, `Content-Length` framed messages on
 * stdout).
 */
import { fork, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

/** The checkout (package root). */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** The clauz3 diagnostic source. */
export const SOURCE = "clauz3";

/** The program header of the fixtures: the stdlib filesystem layer, copied to tools/filesystem/trusted. */
export const FS_HEADER = `import { readFile } from "./tools/filesystem/trusted/effects";
import * as fs from "./tools/filesystem/trusted/contracts";
`;

// dist/ freshness and the locked build are shared with the tspc fixtures.
export { distIsStale, ensureBuilt } from "../../fixtures/projects/project.mjs";
import { lockProject, writeFilesAndLink } from "../../fixtures/projects/project.mjs";

/** The tsconfig of the test projects; `plugin: false` leaves the plugin out. */
export function tsconfigText({ plugin = true, pluginOptions = {}, include = ["**/*.ts"] } = {}) {
  return JSON.stringify(
    {
      compilerOptions: {
        target: "ES2022",
        module: "node16",
        moduleResolution: "node16",
        lib: ["ES2022"],
        types: ["node"],
        strict: true,
        skipLibCheck: true,
        noEmit: true,
        ...(plugin ? { plugins: [{ name: "clauz3/language-service", ...pluginOptions }] } : {}),
      },
      include,
      exclude: ["node_modules"],
    },
    null,
    2,
  );
}

/**
 * A fresh project directory: `files` (relative path → text), the stdlib layers named in `stdlib`
 * copied to `tools/<domain>/trusted/`, a tsconfig.json (unless `files` has one) and node_modules
 * links; with `lock` (the default), its trusted layer pinned by `clauz3 lock` (dist/ must be built).
 */
export function makeProject({ files = {}, stdlib = ["filesystem"], plugin = true, pluginOptions = {}, prefix = "clauz3-ls-", lock = true } = {}) {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  for (const domain of stdlib) fs.cpSync(path.join(ROOT, "stdlib", domain, "trusted"), path.join(dir, "tools", domain, "trusted"), { recursive: true });
  if (!("tsconfig.json" in files)) fs.writeFileSync(path.join(dir, "tsconfig.json"), tsconfigText({ plugin, pluginOptions }));
  writeFilesAndLink(dir, files);
  if (lock) lockProject(dir);
  return dir;
}

/** Remove a project (never follows the node_modules links). */
export function removeProject(dir) {
  fs.rmSync(dir, { recursive: true, force: true });
}

/** 1-based line and offset of the first occurrence of `needle` in `text`. */
export function locate(text, needle, occurrence = 0) {
  let at = -1;
  for (let i = 0; i <= occurrence; i++) {
    at = text.indexOf(needle, at + 1);
    if (at < 0) throw new Error(`${JSON.stringify(needle)} not found`);
  }
  const before = text.slice(0, at).split("\n");
  return { line: before.length, offset: before[before.length - 1].length + 1 };
}

/** A running tsserver. */
export class Tsserver {
  /**
   * Start `node <project>/node_modules/typescript/lib/tsserver.js` for `project`.
   * `env` adds environment variables (for example the plugin's fault-injection hook).
   */
  constructor(project, { env = {}, logFile = path.join(project, "tsserver.log"), verbose = true } = {}) {
    this.project = project;
    this.logFile = logFile;
    this.seq = 0;
    this.pending = new Map();
    this.listeners = new Set();
    this.events = [];
    this.buffer = Buffer.alloc(0);
    this.exited = false;
    const args = [
      "--pluginProbeLocations", project,
      "--allowLocalPluginLoads",
      "--disableAutomaticTypingAcquisition",
      "--locale", "en",
      ...(verbose ? ["--logVerbosity", "verbose", "--logFile", logFile] : []),
    ];
    this.child = fork(path.join(project, "node_modules/typescript/lib/tsserver.js"), args, {
      cwd: project,
      stdio: ["pipe", "pipe", "pipe", "ipc"],
      env: { ...process.env, ...env },
      execArgv: [],
    });
    this.stderr = "";
    this.child.stderr.on("data", (d) => (this.stderr += d.toString()));
    this.child.stdout.on("data", (d) => this.onData(d));
    this.child.on("exit", (code, signal) => {
      this.exited = true;
      const error = new Error(`tsserver exited (${code ?? signal}): ${this.stderr.slice(-2000)}`);
      for (const { reject } of this.pending.values()) reject(error);
      this.pending.clear();
      for (const l of [...this.listeners]) l.fail?.(error);
    });
  }

  onData(chunk) {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    for (;;) {
      const header = this.buffer.indexOf("\r\n\r\n");
      if (header < 0) return;
      const m = /Content-Length: (\d+)/.exec(this.buffer.subarray(0, header).toString("utf8"));
      if (!m) throw new Error(`bad tsserver header: ${this.buffer.subarray(0, header).toString("utf8")}`);
      const length = Number(m[1]);
      const start = header + 4;
      if (this.buffer.length < start + length) return;
      const message = JSON.parse(this.buffer.subarray(start, start + length).toString("utf8"));
      this.buffer = this.buffer.subarray(start + length);
      this.onMessage(message);
    }
  }

  onMessage(message) {
    if (message.type === "response") {
      const waiter = this.pending.get(message.request_seq);
      if (waiter) {
        this.pending.delete(message.request_seq);
        if (message.success) waiter.resolve(message);
        else waiter.reject(new Error(`tsserver ${message.command} failed: ${message.message}`));
      }
    } else if (message.type === "event") {
      this.events.push(message);
      for (const l of [...this.listeners]) l.on(message);
    }
  }

  send(command, args) {
    const seq = ++this.seq;
    this.child.stdin.write(`${JSON.stringify({ seq, type: "request", command, arguments: args })}\n`);
    return seq;
  }

  /** A request that has a response. */
  request(command, args) {
    if (this.exited) return Promise.reject(new Error("tsserver has exited"));
    const seq = this.send(command, args);
    return new Promise((resolve, reject) => this.pending.set(seq, { resolve, reject }));
  }

  /** Resolve with the first event for which `match` is true (`timeoutMs`: reject after). */
  waitForEvent(match, timeoutMs = 60_000) {
    return new Promise((resolve, reject) => {
      const listener = {
        on: (e) => {
          if (match(e)) {
            done();
            resolve(e);
          }
        },
        fail: (error) => {
          done();
          reject(error);
        },
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`no matching tsserver event within ${timeoutMs} ms`));
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        this.listeners.delete(listener);
      };
      this.listeners.add(listener);
    });
  }

  async configure() {
    await this.request("configure", { preferences: { includeCompletionsForModuleExports: false } });
  }

  /** Open a file of the project (its text read from disk unless given). */
  async open(file, text) {
    const fileName = path.resolve(this.project, file);
    await this.request("updateOpen", {
      openFiles: [{ file: fileName, fileContent: text ?? fs.readFileSync(fileName, "utf8"), projectRootPath: this.project, scriptKindName: "TS" }],
    });
    return fileName;
  }

  /** Replace the whole text of an open file (the editor's edit). */
  async replace(file, oldText, newText) {
    const fileName = path.resolve(this.project, file);
    const lines = oldText.split("\n");
    await this.request("updateOpen", {
      changedFiles: [
        {
          fileName,
          textChanges: [{ start: { line: 1, offset: 1 }, end: { line: lines.length, offset: lines[lines.length - 1].length + 1 }, newText }],
        },
      ],
    });
  }

  /**
   * `geterr` for `files`: resolves when tsserver reports the request completed, with the
   * syntactic, semantic and suggestion diagnostics of each file (by file name).
   */
  async geterr(files) {
    const fileNames = files.map((f) => path.resolve(this.project, f));
    const result = { syntax: new Map(), semantic: new Map(), suggestion: new Map() };
    const kinds = { syntaxDiag: "syntax", semanticDiag: "semantic", suggestionDiag: "suggestion" };
    let seq;
    const collect = {
      on: (e) => {
        const kind = kinds[e.event];
        if (kind && fileNames.includes(e.body.file)) result[kind].set(e.body.file, e.body.diagnostics);
      },
    };
    this.listeners.add(collect);
    try {
      const completed = this.waitForEvent((e) => e.event === "requestCompleted" && e.body.request_seq === seq, 120_000);
      seq = this.send("geterr", { files: fileNames, delay: 0 });
      await completed;
    } finally {
      this.listeners.delete(collect);
    }
    return result;
  }

  async quickinfo(file, line, offset) {
    const r = await this.request("quickinfo", { file: path.resolve(this.project, file), line, offset });
    return r.body;
  }

  /**
   * Poll `geterr` on `file` until `done(result)` is true, waiting between polls for the plugin's
   * `projectsUpdatedInBackground` event (or `intervalMs`). Resolves with the last result, or
   * rejects after `budgetMs` with what was seen.
   */
  async pollDiagnostics(file, done, { budgetMs = 60_000, intervalMs = 250 } = {}) {
    const deadline = Date.now() + budgetMs;
    let last;
    for (;;) {
      const refreshed = this.waitForEvent((e) => e.event === "projectsUpdatedInBackground", intervalMs).catch(() => undefined);
      last = await this.geterr([file]);
      const fileName = path.resolve(this.project, file);
      const view = { semantic: last.semantic.get(fileName) ?? [], suggestion: last.suggestion.get(fileName) ?? [], syntax: last.syntax.get(fileName) ?? [] };
      if (done(view)) return view;
      if (Date.now() > deadline) {
        const error = new Error(`diagnostics of ${file} did not reach the expected state within ${budgetMs} ms; last: ${JSON.stringify(view, null, 1)}`);
        error.last = view;
        throw error;
      }
      await refreshed;
    }
  }

  async close() {
    if (this.exited) return;
    const exited = new Promise((resolve) => this.child.once("exit", resolve));
    try {
      this.send("exit", {});
    } catch {
      /* already closing */
    }
    const timer = setTimeout(() => this.child.kill(), 5000);
    await exited;
    clearTimeout(timer);
  }
}

/** clauz3's diagnostics among tsserver's. */
export function ours(diagnostics) {
  return diagnostics.filter((d) => d.source === SOURCE);
}
