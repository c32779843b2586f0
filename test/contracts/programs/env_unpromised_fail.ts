// drafts() promises nothing about its elements: reading them may leave the prefix.
// @expect violated readsOnlyUnder line=9
import { drafts, readEnv } from "./tools/mail/trusted/layer";
import * as mail from "./tools/mail/trusted/layer";

export const guarantees = [mail.readsOnlyUnder("APP_")];

export function main(): void {
  for (const name of drafts()) readEnv(name);
}
