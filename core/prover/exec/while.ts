/**
 * `while` and `do…while` whose number of iterations is evident: the condition is decided (true or
 * false, not symbolic) before every iteration, as with a counter against a literal
 * (`let i = 0; while (i < 3) { …; i++; }`). They are unrolled like `for` with a literal bound;
 * any other condition is refused on its node.
 */
import type * as TS from "typescript";
import { UNROLL_CAP } from "./caps";
import { refuse, type Exec } from "./context";
import { evalExpr } from "./expressions";
import { cond } from "./guards";
import { joinStates, jumpsOf, labelsOf, passedOn, type Flow, type Jump, type State } from "./state";
import { execStatement } from "./statements";

export function execWhile(ex: Exec, s: TS.WhileStatement | TS.DoStatement, st: State): Flow {
  const isDo = ex.ts.isDoStatement(s);
  const returns: Flow["returns"] = [];
  const broken: State[] = [];
  const outward: Jump[] = [];
  const labels = labelsOf(ex, s);
  let cur: State | null = { pc: st.pc, env: new Map(st.env) };
  for (let n = 0; cur; n++) {
    if (n > UNROLL_CAP) refuse(s, `The loop runs more than ${UNROLL_CAP} iterations.`, `Loops with evident bounds are unrolled up to ${UNROLL_CAP} iterations.`);
    // A `do…while` runs its body once before the first test; `continue` goes to the test.
    if (!isDo || n > 0) {
      const test = cond(evalExpr(ex, s.expression, cur), s.expression);
      if (test === "false") break;
      if (test !== "true") {
        refuse(s.expression, `The \`${isDo ? "do…while" : "while"}\` condition is not decided before every iteration (the loop runs an unknown number of times).`, "Count against a literal (`let i = 0; while (i < 5) { …; i++; }`), write `for (let i = 0; i < N; i++)` with a literal N, or loop over an array with `for (const x of xs)`.");
      }
    }
    const flow = execStatement(ex, s.statement, cur);
    returns.push(...flow.returns);
    broken.push(...jumpsOf(flow, "break", labels).map((j) => j.state));
    outward.push(...passedOn(flow, labels));
    cur = joinStates(ex, [...jumpsOf(flow, "continue", labels).map((j) => j.state), flow.fall], s);
  }
  const out = joinStates(ex, [...broken, cur], s);
  if (out) for (const [k, v] of out.env) if (st.env.has(k)) st.env.set(k, v);
  return { fall: out ? { pc: out.pc, env: st.env } : null, returns, jumps: outward };
}
