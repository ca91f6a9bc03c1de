/**
 * Zod compiles object parsers with `new Function` when it may, and finds out by trying once; under the
 * studio's Content-Security-Policy (no 'unsafe-eval') that try is a reported violation. Telling zod
 * up front to parse without compiling keeps the page clean. Zod keeps its configuration on `globalThis`, so
 * this works whether zod loads before or after it and adds nothing of zod to the entry.
 */
const holder = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
holder.__zod_globalConfig ??= {};
holder.__zod_globalConfig.jitless = true;
