/** Well-known keys under which runtime values carry their clauz3 identity. */
export const DECLARATION = Symbol.for("clauz3.declaration");
export const TOOL = Symbol.for("clauz3.tool");
export const CONTRACT = Symbol.for("clauz3.contract");
export const SPEC = Symbol.for("clauz3.spec");
/** Key of the data object the transformer injects as the first argument of `trusted(...)`. */
export const METADATA_KEY = "__clauz3_metadata";
