/**
 * `clauz3/language-service`: the tsserver plugin. Enable it in tsconfig.json:
 *
 *     "compilerOptions": { "plugins": [{ "name": "clauz3/language-service" }] }
 *
 * (with the same `trustedRoots` option as the transformer). tsserver loads it by package name and
 * calls the exported factory with its own TypeScript; see plugin.ts.
 */
import { init } from "./plugin";

export = init;
