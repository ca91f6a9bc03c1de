/**
 * The architecture's arrows (issue 28, DESIGN.md "Layout"), checked by dependency-cruiser in `npm test`:
 * `npm run depcruise`. A broken rule prints the importing file, the imported one and the rule's name.
 * `npm run depcruise:graph` prints the rooms' graph shown in docs/architecture.md ("Dependency rules").
 *
 * TypeScript is parsed with swc (`parser: 'swc'`): dependency-cruiser's TypeScript parser needs the
 * compiler's JavaScript API, which TypeScript 7 (the project's compiler) does not have. swc reports every
 * import, `import type` included, so type-only imports count for every rule (circles too).
 */

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'No import circles anywhere (src, contract, server, payment-service, scripts, bench, tests), also ' +
        'through type-only and dynamic imports: a circle makes a chunk load, a module initialise or a ' +
        'type resolve in an order nobody chose. Move the shared piece below both modules.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'machines-are-pure',
      severity: 'error',
      comment:
        'src/machines holds pure XState machines: they import xstate, the contract and other machines, ' +
        'nothing else (no React, no @xstate/react, no services, no UI, no Node or browser APIs). Side effects ' +
        'come in as actors and actions provided by the app and the tests.',
      from: { path: '^src/machines/' },
      to: { pathNot: ['^src/machines/', '^contract/', '^node_modules/xstate/'] },
    },
    {
      name: 'services-no-ui',
      severity: 'error',
      comment:
        'src/services is the outside world (API client, socket, storage, media, i18n): it sits below the UI ' +
        'and the customer page and imports nothing of them.',
      from: { path: '^src/services/' },
      to: { path: '^src/(ui|customer)/' },
    },
    {
      name: 'contract-imports-nothing-of-ours',
      severity: 'error',
      comment:
        'contract/ is what the studio, the server and the payment service all stand on: it imports only ' +
        'contract/ and npm packages (zod …), nothing of src, server or payment-service.',
      from: { path: '^contract/' },
      to: { pathNot: ['^contract/', '^node_modules/'] },
    },
    {
      name: 'server-not-studio',
      severity: 'error',
      comment:
        'The reference server and the payment service import nothing of the studio (src/): what they share ' +
        'with it is in contract/.',
      from: { path: '^(server|payment-service)/' },
      to: { path: '^src/' },
    },
    {
      name: 'customer-page-separate',
      severity: 'error',
      comment:
        "The customer's join page (src/customer, its own small entry) imports nothing of the studio's UI. " +
        'It shares exactly this with the studio: the machines (customerCall), the services (socket, call ' +
        'media), src/shared (StreamVideo), the contract and its locales.',
      from: { path: '^src/customer/' },
      to: {
        pathNot: [
          '^src/(customer|machines|services|shared)/',
          '^contract/',
          '^locales/[^/]+/customer\\.json$',
          '^node_modules/',
        ],
      },
    },
    {
      name: 'shared-stands-alone',
      severity: 'error',
      comment:
        'src/shared holds the React pieces both the studio and the customer page show: it imports npm ' +
        'packages and itself only (nothing of the studio UI, nothing of the customer page).',
      from: { path: '^src/shared/' },
      to: { pathNot: ['^src/shared/', '^node_modules/'] },
    },
    {
      name: 'code-not-tests',
      severity: 'error',
      comment: 'Nothing that ships (src, contract, server, payment-service) imports tests/.',
      from: { path: '^(src|contract|server|payment-service)/' },
      to: { path: '^tests/' },
    },
    {
      name: 'no-orphans',
      severity: 'error',
      comment:
        'A module that imports nothing and that nothing imports is dead or forgotten: wire it in or remove ' +
        'it. Type declaration files (*.d.ts) are read by the compiler, not imported.',
      from: { orphan: true, pathNot: '\\.d\\.ts$' },
      to: {},
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment:
        'Every import resolves to a file or an installed package. Exception: the virtual modules the Vite ' +
        'build makes (virtual:blueprint-*.css, build/blueprintCss.ts).',
      from: {},
      to: { couldNotResolve: true, pathNot: '^virtual:' },
    },
  ],
  options: {
    parser: 'swc',
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: '^node_modules' },
    // Worktrees link node_modules; resolve through the link as one tree.
    preserveSymlinks: true,
    enhancedResolveOptions: {
      // package.json "exports" and "imports" (#contract/*), as Vite and Node resolve them.
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
      extensions: ['.ts', '.tsx', '.d.ts', '.js', '.mjs', '.cjs', '.json'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
    // `npm run depcruise:graph` (docs/architecture.md): readable Mermaid text, one line per arrow.
    reporterOptions: { mermaid: { minify: false } },
  },
};
