// An element found with includes keeps the promise too.
// @expect proved
import { listEnv, readEnv } from "./tools/mail/trusted/layer";
import * as mail from "./tools/mail/trusted/layer";

export const guarantees = [mail.readsOnlyUnder("APP_")];

export function main(name: string): void {
  if (listEnv("APP_").includes(name)) readEnv(name);
}
