/**
 * Tools of one object of named arguments (`function send(msg: { to: string; subject: string })`):
 * the object's properties are the tool's named parameters. The object is the snapshot the wrapper
 * took (snapshot.ts: a frozen plain copy, read once), so `requires`, the builder, the backstop and
 * the implementation all see the same properties.
 */
import { ArgumentError } from "./errors";
import { ArrayIsArray, ReflectGetPrototypeOf, setField } from "./intrinsics";

const ObjectKeys = Object.keys;
const ObjectPrototype = Object.prototype;

/** Whether a snapshot argument is a plain object (a copy: a class instance is passed as it is, and is not). */
export function isPlainRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  if (typeof value !== "object" || value === null || ArrayIsArray(value)) return false;
  const proto = ReflectGetPrototypeOf(value);
  return proto === ObjectPrototype || proto === null;
}

/**
 * The named parameters of a call: the declared properties (from the transformer's metadata), or,
 * without metadata, the object's own properties. A call whose argument is not a plain object is
 * refused before anything runs.
 */
export function namedArguments(tool: string, parameter: string, declared: readonly string[] | undefined, value: unknown): Record<string, unknown> {
  if (!isPlainRecord(value)) throw new ArgumentError(tool, parameter, "is not a plain object of named arguments; pass an object literal");
  const keys = declared ?? ObjectKeys(value);
  const named: Record<string, unknown> = {};
  for (let i = 0; i < keys.length; i++) setField(named, keys[i]!, value[keys[i]!]);
  return named;
}
