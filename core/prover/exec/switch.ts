/** `switch`, with JavaScript's fallthrough between clauses. */
import type * as TS from "typescript";
import { holeOpen } from "../holes";
import { and, not } from "../smt";
import { strictEquals } from "../values";
import { refuse, type Exec } from "./context";
import { evalExpr } from "./expressions";
import { compactPc, joinStates, jumpsOf, labelsOf, type Flow, type Jump, type State } from "./state";
import { enterBlock, execStatements } from "./statements";

/**
 * JavaScript's `switch`: the case expressions are compared in order until one matches, then the
 * clauses run from there, each falling into the next until a `break` (or `return`, `throw`,
 * `continue`) leaves. A clause ends only where every path through it has left; a clause whose
 * last statement is a block `{ … }` falls through like any other.
 */
export function execSwitch(ex: Exec, s: TS.SwitchStatement, st: State): Flow {
  const ts = ex.ts;
  const d = evalExpr(ex, s.expression, st);
  const clauses = s.caseBlock.clauses;
  const defaultIndex = clauses.findIndex((c) => ts.isDefaultClause(c));
  if (defaultIndex >= 0 && defaultIndex !== clauses.length - 1) refuse(clauses[defaultIndex]!, "`default` must be the last clause.", "Move `default` to the end.");
  // The clauses form one block: their `let`/`const` declarations are not visible before they run.
  enterBlock(ex, clauses.flatMap((c) => [...c.statements]), st);
  const returns: Flow["returns"] = [];
  const labels = labelsOf(ex, s);
  const continues: Jump[] = [];
  const left: State[] = [];
  /** Paths that have not matched a case yet. */
  let rest: State | null = st;
  /** Paths that ran the previous clause to its end and fall into this one. */
  let falling: State | null = null;
  for (const clause of clauses) {
    let matched: State | null = null;
    if (rest) {
      compactPc(ex, rest);
      const restState: State = rest;
      let c = "true";
      if (ts.isCaseClause(clause)) {
        const eq = strictEquals(d, evalExpr(ex, clause.expression, restState));
        if (eq === undefined) refuse(clause.expression, "This `case` value cannot be compared with the discriminant.", "Compare strings, numbers or booleans.");
        c = eq;
      }
      matched = c === "false" ? null : { pc: and(restState.pc, c), env: new Map(restState.env) };
      rest = c === "true" ? null : { pc: and(restState.pc, not(c)), env: new Map(restState.env) };
    }
    const entry = joinStates(ex, [matched, falling], s);
    if (!entry) {
      falling = null;
      continue;
    }
    const flow = execStatements(ex, clause.statements, entry);
    returns.push(...flow.returns);
    // A `break` inside the clause leaves the switch; a `continue` belongs to an enclosing loop.
    continues.push(...(flow.jumps ?? []).filter((j) => j.kind === "continue" || (j.label !== undefined && !labels.has(j.label))));
    left.push(...jumpsOf(flow, "break", labels).map((j) => j.state));
    falling = flow.fall;
    const last = clause.statements[clause.statements.length - 1];
    if (holeOpen("switch-fallthrough") && last && ts.isBlock(last) && falling) {
      left.push(falling);
      falling = null;
    }
  }
  return { fall: joinStates(ex, [...left, falling, rest], s), returns, jumps: continues };
}
