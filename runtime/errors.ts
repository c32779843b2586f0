/** Base class of the errors the clauz3 runtime throws. */
export class Clauz3Error extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

function show(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

function showArgs(args: Readonly<Record<string, unknown>>): string {
  return Object.entries(args).map(([k, v]) => `${k}=${show(v)}`).join(", ");
}

/** A `requires` precondition failed: thrown before the tool's implementation runs. */
export class RequiresError extends Clauz3Error {
  constructor(
    readonly tool: string,
    readonly args: Readonly<Record<string, unknown>>,
    readonly requirement: string,
  ) {
    super(`${tool}(${showArgs(args)}): precondition failed: ${requirement}`);
  }
}

/** An `ensures` postcondition failed on the value the implementation returned. */
export class EnsuresError extends Clauz3Error {
  constructor(
    readonly tool: string,
    readonly args: Readonly<Record<string, unknown>>,
    readonly result: unknown,
    readonly promise: string,
  ) {
    super(`${tool}(${showArgs(args)}) returned ${show(result)}: postcondition failed: ${promise}`);
  }
}

/** The runtime backstop stopped a call whose events would break a guarantee. */
export class GuaranteeViolationError extends Clauz3Error {
  constructor(
    readonly tool: string,
    readonly contract: string | undefined,
    readonly detail: string,
  ) {
    super(`${tool}: refused at run time: ${contract ? `${contract}: ` : ""}${detail}`);
  }
}
