/**
 * Loading z3-solver's wasm build with its JavaScript glue rewritten for speed, in every thread.
 *
 * z3-solver ships the glue of a build with emscripten's debug assertions on, and Z3's C++
 * exceptions are emscripten's JavaScript ones: every call that may throw leaves the wasm through an
 * `invoke_*` function of the glue, which looks its target up in the function table. A solver check
 * makes about 180 000 such calls (an `ops` corpus query, ~15 ms), and each one also asked the wasm
 * table again (`wasmTable.get`) to assert that the glue's mirror of it was current: that assertion
 * took about half of every check. The rewrites (`GLUE_REWRITES`) change no result, only speed:
 * - `deferral`: a check's answer settles through `setImmediate` instead of `setTimeout(…, 0)`,
 *   which Node clamps to 1 ms (their workaround for emscripten-core/emscripten#15900: the promise
 *   must not settle inside the wasm callback; `setImmediate` defers it just as well). A trivial
 *   check: 1.9 ms with the timeout against 0.7 ms.
 * - `table-mirror-assertion`: the assertion above. The mirror is filled from the table and only
 *   emscripten's `addFunction` changes the table, which updates the mirror too.
 * - `export-wrapper-assertions`: each call of an exported function (the whole low-level API)
 *   built three assertion messages before calling it.
 * - `pthread-glue`: z3-solver runs every check on an emscripten pthread (a Node worker thread),
 *   which loads the glue file from disk by itself; with this rewrite the pool starts its threads
 *   from code (`eval`) that runs the same rewritten glue.
 * Each rewrite replaces text exactly as the pinned z3-solver writes it, once; a text it does not
 * find exactly (another z3-solver) is left as it is, slower but with the same answers.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as vm from "node:vm";

type LowLevel = Awaited<ReturnType<typeof import("z3-solver").init>>["Z3"];
type InitModule = (overrides: object) => Promise<unknown>;

/** One rewrite of the glue: every edit's `from` occurs exactly once, or the rewrite is not made. */
interface GlueRewrite {
  readonly name: string;
  readonly edits: readonly { readonly from: string; readonly to: string }[];
}

/** The module option that makes the pthread pool start its threads from code (see `pthread-glue`). */
const PTHREAD_CODE = "clauz3PthreadCode";

export const GLUE_REWRITES: readonly GlueRewrite[] = [
  {
    name: "deferral",
    edits: [
      { from: "setTimeout(() => {\n    cap.resolve(val);\n  }, 0);", to: "setImmediate(() => {\n    cap.resolve(val);\n  });" },
      { from: "setTimeout(() => {\n    cap.reject(val);\n  }, 0);", to: "setImmediate(() => {\n    cap.reject(val);\n  });" },
    ],
  },
  {
    name: "table-mirror-assertion",
    edits: [{ from: "      assert(wasmTable.get(funcPtr) == func, 'JavaScript-side Wasm function table mirror is out of date!');\n", to: "" }],
  },
  {
    name: "export-wrapper-assertions",
    edits: [
      {
        from: [
          "function createExportWrapper(name, nargs) {",
          "  return (...args) => {",
          "    assert(runtimeInitialized, `native function \\`${name}\\` called before runtime initialization`);",
          "    var f = wasmExports[name];",
          "    assert(f, `exported native function \\`${name}\\` not found`);",
          "    // Only assert for too many arguments. Too few can be valid since the missing arguments will be zero filled.",
          "    assert(args.length <= nargs, `native function \\`${name}\\` called with ${args.length} args but expects ${nargs}`);",
          "    return f(...args);",
          "  };",
          "}",
        ].join("\n"),
        to: ["function createExportWrapper(name, nargs) {", "  return (...args) => wasmExports[name](...args);", "}"].join("\n"),
      },
    ],
  },
  {
    name: "pthread-glue",
    edits: [
      {
        from: "        worker = new Worker(pthreadMainJs, workerOptions);",
        to: `        worker = Module['${PTHREAD_CODE}'] ? new Worker(Module['${PTHREAD_CODE}'], Object.assign({}, workerOptions, { eval: true })) : new Worker(pthreadMainJs, workerOptions);`,
      },
    ],
  },
];

/** The glue's text with every rewrite whose edits all match exactly once, and the names of those made. */
export function rewriteGlue(text: string): { readonly text: string; readonly applied: readonly string[] } {
  let out = text;
  const applied: string[] = [];
  for (const rewrite of GLUE_REWRITES) {
    const exact = rewrite.edits.every(({ from }) => {
      const at = out.indexOf(from);
      return at >= 0 && out.indexOf(from, at + from.length) < 0;
    });
    if (!exact) continue;
    for (const { from, to } of rewrite.edits) {
      const at = out.indexOf(from);
      out = out.slice(0, at) + to + out.slice(at + from.length);
    }
    applied.push(rewrite.name);
  }
  return { text: out, applied };
}

/** Run glue text as Node would run the file `filename` as a CommonJS module; its exports. */
function runGlue(text: string, filename: string): unknown {
  const module = { exports: {} as unknown };
  const run = vm.compileFunction(text, ["exports", "require", "module", "__filename", "__dirname"], { filename });
  run.call(module.exports, module.exports, require, module, filename, path.dirname(filename));
  return module.exports;
}

/**
 * The code a pthread starts from: the rewritten glue, run as if loaded from the glue's own file
 * (its name is where emscripten looks for the wasm file and what stacks show). Run in a worker
 * marked as a pthread, the glue starts the pthread's own instance.
 */
function pthreadCode(text: string, filename: string): string {
  return [
    `((filename) => {`,
    `  const glue = { exports: {} };`,
    `  require("node:vm").compileFunction(${JSON.stringify(text)}, ["exports", "require", "module", "__filename", "__dirname"], { filename })`,
    `    .call(glue.exports, glue.exports, require, glue, filename, require("node:path").dirname(filename));`,
    `})(${JSON.stringify(filename)});`,
  ].join("\n");
}

interface Glue {
  readonly factory: InitModule;
  readonly applied: readonly string[];
  /** Module options: where the pthreads get their code. */
  readonly options: object;
}

function loadGlue(): Glue {
  const builtPath = require.resolve("z3-solver/build/z3-built.js");
  const { text, applied } = rewriteGlue(fs.readFileSync(builtPath, "utf8"));
  if (applied.length === 0) return { factory: require(builtPath) as InitModule, applied, options: {} };
  return {
    factory: runGlue(text, builtPath) as InitModule,
    applied,
    options: applied.includes("pthread-glue") ? { [PTHREAD_CODE]: pthreadCode(text, builtPath) } : {},
  };
}

let memo: Glue | undefined;

/** The rewrites this process's z3-solver was loaded with (for the bench and tests). */
export function glueRewrites(): readonly string[] {
  memo ??= loadGlue();
  return memo.applied;
}

/** z3-solver's low-level `init` over the (rewritten) glue: a fresh wasm instance each call. */
export async function initZ3(overrides: { printErr?: (text: unknown) => void }): Promise<{ Z3: LowLevel; em: unknown }> {
  memo ??= loadGlue();
  const { init } = require("z3-solver/build/low-level") as { init: (m: InitModule, o: object) => Promise<{ Z3: LowLevel; em: unknown }> };
  return init(memo.factory, { ...memo.options, ...overrides });
}
