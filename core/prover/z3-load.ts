/**
 * Loading z3-solver's wasm build with one change: an asynchronous call's answer reaches us through
 * `setImmediate` instead of `setTimeout(…, 0)`.
 *
 * z3-solver runs every `solver_check` on a pthread; when it is done, the thread hands the answer to
 * this thread, which resolves the promise from a `setTimeout(…, 0)` (their workaround for
 * emscripten-core/emscripten#15900: the promise must not settle inside the wasm callback). Node
 * clamps that timeout to 1 ms, and a proof asks Z3 several checks: measured on a trivial check,
 * 1.9 ms a check with the timeout against 0.7 ms with `setImmediate`, which defers the settling
 * just as well. The module's text is compiled here with those two statements rewritten, exactly as
 * written in the pinned z3-solver; when the text is not as expected (another z3-solver), it is
 * loaded unchanged, slower but the same answers. Its pthreads load the file from disk (by its real
 * name), so only this thread runs the rewritten copy, the only thread that settles promises.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as vm from "node:vm";

type LowLevel = Awaited<ReturnType<typeof import("z3-solver").init>>["Z3"];
type InitModule = (overrides: object) => Promise<unknown>;

/** The two statements, as z3-solver 4.x/5.x's async wrapper writes them. */
const DEFERRED = [
  { from: "setTimeout(() => {\n    cap.resolve(val);\n  }, 0);", to: "setImmediate(() => {\n    cap.resolve(val);\n  });" },
  { from: "setTimeout(() => {\n    cap.reject(val);\n  }, 0);", to: "setImmediate(() => {\n    cap.reject(val);\n  });" },
] as const;

/** The module text with the answers settled through `setImmediate`, or undefined when it is not the text we know. */
export function rewriteDeferral(text: string): string | undefined {
  let out = text;
  for (const { from, to } of DEFERRED) {
    const at = out.indexOf(from);
    if (at < 0 || out.indexOf(from, at + from.length) >= 0) return undefined;
    out = out.slice(0, at) + to + out.slice(at + from.length);
  }
  return out;
}

/** z3-solver's emscripten module factory, rewritten when possible (see above). */
function initModule(): { factory: InitModule; rewritten: boolean } {
  const builtPath = require.resolve("z3-solver/build/z3-built.js");
  const rewritten = rewriteDeferral(fs.readFileSync(builtPath, "utf8"));
  if (rewritten === undefined) return { factory: require(builtPath) as InitModule, rewritten: false };
  const module = { exports: {} as unknown };
  const run = vm.compileFunction(rewritten, ["exports", "require", "module", "__filename", "__dirname"], { filename: builtPath });
  run.call(module.exports, module.exports, require, module, builtPath, path.dirname(builtPath));
  return { factory: module.exports as InitModule, rewritten: true };
}

let memo: { factory: InitModule; rewritten: boolean } | undefined;

/** Whether this process's z3-solver was loaded with the faster deferral (for the bench and tests). */
export function deferralRewritten(): boolean {
  memo ??= initModule();
  return memo.rewritten;
}

/** z3-solver's low-level `init` over the (rewritten) module: a fresh wasm instance each call. */
export async function initZ3(overrides: { printErr?: (text: unknown) => void }): Promise<{ Z3: LowLevel; em: unknown }> {
  memo ??= initModule();
  const { init } = require("z3-solver/build/low-level") as { init: (m: InitModule, o: object) => Promise<{ Z3: LowLevel; em: unknown }> };
  return init(memo.factory, overrides);
}
