// Reads every variable listEnv lists under the prefix: proved from listEnv's element promise.
// @expect proved
import { listEnv, readEnv } from "./tools/mail/trusted/layer";
import * as mail from "./tools/mail/trusted/layer";

export const guarantees = [mail.readsOnlyUnder("APP_")];

export function main(): void {
  for (const name of listEnv("APP_")) readEnv(name);
}
