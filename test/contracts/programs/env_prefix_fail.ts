// Lists a wider prefix than the guarantee allows: "AP" names need not start with "APP_".
// @expect violated readsOnlyUnder line=9
import { listEnv, readEnv } from "./tools/mail/trusted/layer";
import * as mail from "./tools/mail/trusted/layer";

export const guarantees = [mail.readsOnlyUnder("APP_")];

export function main(): void {
  for (const name of listEnv("AP")) readEnv(name);
}
