/**
 * Binding a policy's clauses to the contracts of a layer: each callee must name exactly one
 * contract (by its library-qualified name, as `describe` shows it), each argument a parameter of
 * it with a value of the parameter's declared type, every parameter without a default must be
 * given. The result is plain data (file, export name, values), independent of the TypeScript program
 * it was resolved in, so any program over the same layer can be proved with it (prove.ts).
 */
import type * as TS from "typescript";
import type { TypeScript } from "../context";
import { literalText, readLiteral, valueHasType, type LiteralValue } from "../guarantees";
import type { ContractModel, LayerModel } from "../model";
import { Refusal } from "../refusal";
import { ClauseSyntaxError, parseClause } from "./clause";
import { CLAUSES_OF, PolicyError, type Policy, type ResolvedCall, type ResolvedPolicy } from "./types";

/** Why a parsed clause does not bind to the layer's contracts (the caller adds file and field). */
class BindError extends Error {}

function describeValue(v: LiteralValue): string {
  return v.kind === "array" ? "an array" : `a ${v.kind}`;
}

/** The contracts whose qualified name is close to `callee` (same library, or same name), for the message. */
function suggestions(contracts: readonly ContractModel[], callee: string): string {
  const [domain] = callee.split(".");
  const name = callee.slice(callee.lastIndexOf(".") + 1);
  const near = contracts.filter((c) => c.domain === domain || c.name === name).map((c) => c.qualifiedName);
  const unique = [...new Set(near)].sort().slice(0, 8);
  return unique.length > 0 ? ` (the layer has ${unique.join(", ")}${near.length > unique.length ? ", …" : ""})` : "";
}

/** Bind one clause; throws a plain message (the caller names the file and field). */
function resolveClause(ts: TypeScript, checker: TS.TypeChecker, contracts: readonly ContractModel[], text: string): ResolvedCall {
  const parsed = parseClause(ts, text);
  const matches = contracts.filter((c) => c.qualifiedName === parsed.callee);
  if (matches.length === 0) throw new BindError(`names \`${parsed.callee}\`, which is not a contract of the layer${suggestions(contracts, parsed.callee)}`);
  if (matches.length > 1) throw new BindError(`names \`${parsed.callee}\`, which ${matches.length} contracts of the layer are called (in ${matches.map((c) => c.fileName).join(", ")}): the clause cannot say which one`);
  const contract = matches[0]!;
  const params = contract.parameters;
  if (parsed.positional.length > params.length) throw new BindError(`gives ${parsed.positional.length} arguments; \`${contract.qualifiedName}\` takes ${params.length}${params.length > 0 ? ` (${params.map((p) => `${p.name}: ${p.typeText}`).join(", ")})` : ""}`);
  const given = new Map<string, LiteralValue>();
  parsed.positional.forEach((v, i) => given.set(params[i]!.name, v));
  for (const n of parsed.named) {
    const p = params.find((x) => x.name === n.name);
    if (!p) throw new BindError(`names the argument \`${n.name}\`, which \`${contract.qualifiedName}\` does not have (its parameters: ${params.map((x) => x.name).join(", ") || "none"})`);
    if (given.has(n.name)) throw new BindError(`gives \`${n.name}\` both by position and by name`);
    given.set(n.name, n.value);
  }
  const args = params.map((p) => {
    let value = given.get(p.name);
    if (value === undefined) {
      if (!p.node.initializer) throw new BindError(`leaves out \`${p.name}\` (${p.typeText}), which \`${contract.qualifiedName}\` needs`);
      try {
        value = readLiteral(ts, checker, p.node.initializer);
      } catch (error) {
        if (error instanceof Refusal) throw new BindError(`leaves out \`${p.name}\`, whose default is not a literal: give it`);
        throw error;
      }
    } else if (!valueHasType(value, p.type)) {
      throw new BindError(`gives ${describeValue(value)} (${literalText(value)}) for \`${p.name}\`, which \`${contract.qualifiedName}\` declares \`${p.typeText}\``);
    }
    return value;
  });
  return {
    text,
    call: `${contract.qualifiedName}(${params.map((p, i) => `${p.name}=${literalText(args[i]!)}`).join(", ")})`,
    qualifiedName: contract.qualifiedName,
    contractName: contract.name,
    contractFile: contract.fileName,
    args,
  };
}

/** Bind every clause of `policy` to the contracts of `layer`; a clause that does not bind is a `PolicyError` naming its field. */
export function resolvePolicy(ts: TypeScript, checker: TS.TypeChecker, layer: LayerModel, policy: Policy): ResolvedPolicy {
  const contracts = [...layer.contracts.values()];
  return {
    file: policy.file,
    sha256: policy.sha256,
    rules: policy.rules.map((rule) => ({
      ...rule,
      calls: rule.clauses.map((clause, j) => {
        try {
          return resolveClause(ts, checker, contracts, clause);
        } catch (error) {
          const field = `rules[${rule.index}].${CLAUSES_OF[rule.decision]}[${j}]`;
          if (error instanceof BindError) throw new PolicyError(policy.file, field, `${JSON.stringify(clause)} ${error.message}`);
          if (error instanceof ClauseSyntaxError) throw new PolicyError(policy.file, field, `${JSON.stringify(clause)} ${error.problem}`);
          throw error;
        }
      }),
    })),
  };
}
