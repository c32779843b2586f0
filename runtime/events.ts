/** `clauz3/events`: event classes and the `performs` declaration. */
export { Event } from "./event";
export type { EventClass } from "./event";
export { performs, effect } from "./tool";
export type { PerformsDeclaration, Performed } from "./tool";
export { fluent, updates, Fluent, FluentUpdate, FinalState } from "./fluent";
export type { FluentEntry, FluentTag, TagValue, Updated, UpdatesDeclaration } from "./fluent";
