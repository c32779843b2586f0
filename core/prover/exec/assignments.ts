/** Assignments: `x = e`, compound assignments (`+=`, `-=`, `*=`, `/=`), `++`/`--`, and which variables may be written. */
import type * as TS from "typescript";
import { holeOpen } from "../holes";
import { num } from "../values";
import { currentFrame, inside, refuse, skip, type Exec } from "./context";
import { evalExpr } from "./expressions";
import { noFunctionValue } from "./guards";
import { lookup } from "./names";
import { refuseObjectWrite } from "./objects";
import { binaryValue } from "./operators";
import type { State } from "./state";
import { evalDiscard } from "./statements";
import { assignElement } from "./inplace";
import { changeInPlace } from "./changes";

export function execExpressionStatement(ex: Exec, e0: TS.Expression, st: State): void {
  const ts = ex.ts;
  const e = skip(ex, e0);
  if (ts.isBinaryExpression(e) && e.operatorToken.kind >= ts.SyntaxKind.FirstAssignment && e.operatorToken.kind <= ts.SyntaxKind.LastAssignment) {
    const op = e.operatorToken.kind;
    // `out[i] = v` on an array the program owns (inplace.ts).
    if (ts.isElementAccessExpression(skip(ex, e.left))) return assignElement(ex, e, st);
    const target = assignTarget(ex, e.left);
    let value = evalExpr(ex, e.right, st);
    if (op !== ts.SyntaxKind.EqualsToken) {
      const binary = {
        [ts.SyntaxKind.PlusEqualsToken]: ts.SyntaxKind.PlusToken,
        [ts.SyntaxKind.MinusEqualsToken]: ts.SyntaxKind.MinusToken,
        [ts.SyntaxKind.AsteriskEqualsToken]: ts.SyntaxKind.AsteriskToken,
        [ts.SyntaxKind.SlashEqualsToken]: ts.SyntaxKind.SlashToken,
      }[op as number];
      if (binary === undefined) refuse(e.operatorToken, "This compound assignment is not modelled.", "Write `x = x + y` style assignments with +, -, * or /.");
      const old = lookup(ex, e.left as TS.Identifier, st);
      // `-=`, `*=` and `/=` convert with ToNumeric; `+=` concatenates when either side is a string.
      const modelled = binary === ts.SyntaxKind.PlusToken ? (old.k === "num" && value.k === "num") || old.k === "str" || value.k === "str" : old.k === "num" && value.k === "num";
      if (!modelled && !holeOpen("increment-non-number")) refuse(e, `\`${e.operatorToken.getText()}\` on these values converts them first, which is not modelled.`, "Use compound assignment on two numbers (or `+=` onto a string).");
      value = binaryValue(ex, binary, old, value, e);
    }
    noFunctionValue(value, e.right);
    changeInPlace(ex, st, target, value, e);
    return;
  }
  if ((ts.isPostfixUnaryExpression(e) || ts.isPrefixUnaryExpression(e)) && (e.operator === ts.SyntaxKind.PlusPlusToken || e.operator === ts.SyntaxKind.MinusMinusToken)) {
    const target = assignTarget(ex, e.operand);
    const old = lookup(ex, e.operand as TS.Identifier, st);
    // JavaScript converts the operand with ToNumeric (`"5"++` is 6, `undefined++` is NaN): only numbers are modelled.
    if (old.k !== "num" && !holeOpen("increment-non-number")) refuse(e, `\`${e.getText()}\` on a value that is not a number converts it to a number first, which is not modelled.`, "Increment only `number` variables, or convert explicitly and compare the result.");
    changeInPlace(ex, st, target, binaryValue(ex, e.operator === ts.SyntaxKind.PlusPlusToken ? ts.SyntaxKind.PlusToken : ts.SyntaxKind.MinusToken, old, num(1), e), e);
    return;
  }
  evalDiscard(ex, e0, st);
}

/** The variable an assignment writes; refuses writes that would escape a helper or a quantified loop. */
function assignTarget(ex: Exec, node: TS.Expression): TS.Symbol {
  const ts = ex.ts;
  refuseObjectWrite(ex, node);
  if (!ts.isIdentifier(node)) refuse(node, "Only local variables can be assigned.", "Assign to a `let` variable declared in the same function.");
  const sym = ex.checker.getSymbolAtLocation(node);
  const decl = sym?.valueDeclaration;
  if (!sym || !decl) refuse(node, `\`${node.text}\` cannot be resolved.`, "Assign to a `let` variable declared in the same function.");
  const frame = currentFrame(ex);
  if (frame.fn && !inside(decl, frame.fn)) {
    refuse(node, `The function assigns \`${node.text}\`, which it captured from outside: closures that mutate captured state are not modelled.`, "Return the new value from the helper and assign it at the call.");
  }
  if (!frame.fn && !inside(decl, node.getSourceFile())) refuse(node, "Assignment to module state is not modelled.", "Use local variables.");
  if (frame.loopBody && !inside(decl, frame.loopBody) && !frame.carried?.has(sym)) {
    refuse(node, `The loop body assigns \`${node.text}\`, declared outside a loop over an array input or tool result (loop-carried state is not modelled).`, "Compute per-element values inside the loop, or loop over a literal array or a literal bound.");
  }
  return sym;
}
