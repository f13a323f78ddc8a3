/**
 * The house rules that keep the layers apart (DESIGN.md): checked in `npm test` by
 * `npm run lint:deps`. Tests, benchmarks and scripts may reach anything.
 */
module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      severity: 'error',
      comment: 'An import cycle ties modules that should be apart; break it with a port or a smaller module.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'domain-is-pure',
      severity: 'error',
      comment: 'src/domain holds deciders and pure rules: it imports only the domain and the schemas.',
      from: { path: '^src/domain/' },
      to: { pathNot: ['^src/domain/', '^schemas/', '^node_modules/', '^node:'], dependencyTypesNot: ['core'] },
    },
    {
      name: 'adapters-only-from-the-composition-root',
      severity: 'error',
      comment: 'Adapters are chosen and wired in one place (src/main.ts, src/composition/, the CLI that opens stores); everything else depends on ports.',
      from: { path: '^(src|projections|consumers|schemas)/', pathNot: ['^src/adapters/', '^src/main\\.ts$', '^src/composition/', '^src/cli/'] },
      to: { path: '^src/adapters/' },
    },
    {
      name: 'http-not-parsing',
      severity: 'error',
      comment:
        'The HTTP edge reaches the parsers only through ports (MediaTypeDetector, handed in by the composition root); the media types it names are the domain\'s (src/domain/document/media-type.ts).',
      from: { path: '^src/http/' },
      to: { path: '^src/parsing/' },
    },
    {
      name: 'ports-not-parsing',
      severity: 'error',
      comment: 'Ports are the contracts the parsers implement, so the parse contract (ParseLimits, FailureCode, Attachment, Detection) is declared in src/ports and src/parsing imports it, not the other way.',
      from: { path: '^src/ports/' },
      to: { path: '^src/parsing/' },
    },
    {
      name: 'parsing-only-from-adapters-and-composition',
      severity: 'error',
      comment:
        'src/parsing is a layer beside the adapters (the local parser processes run it): the app, capabilities, consumers, projections and schemas depend on the DocumentParser and MediaTypeDetector ports instead. The adapters, src/main.ts, src/config.ts, src/composition/ and src/cli/ may import it.',
      from: { path: '^(src/(app|capabilities)|projections|consumers|schemas)/' },
      to: { path: '^src/parsing/' },
    },
    {
      name: 'parsing-is-a-leaf',
      severity: 'error',
      comment:
        'The parsers are pure functions of a file\'s bytes: besides their libraries they import the domain (blocks, media types), the ports they implement, src/lib and the schemas, never the app, HTTP, adapters, consumers, projections or the composition.',
      from: { path: '^src/parsing/' },
      to: { path: ['^src/(app|http|adapters|composition|cli|capabilities)/', '^src/(main|config)\\.ts$', '^(consumers|projections)/'] },
    },
    {
      name: 'adapters-not-app',
      severity: 'error',
      comment:
        'Adapters implement ports for the app, so they cannot lean on it: what both need lives below them, in src/ports (contracts such as ApiError) or src/lib (retrying, position waiters).',
      from: { path: '^src/adapters/' },
      to: { path: '^src/app/' },
    },
    {
      name: 'lib-is-standalone',
      severity: 'error',
      comment: 'src/lib holds utilities that know nothing of KBQA (backoff, waiting for a position), so any layer may use them: it imports only itself.',
      from: { path: '^src/lib/' },
      to: { pathNot: ['^src/lib/', '^node_modules/', '^node:'], dependencyTypesNot: ['core'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '^(node_modules|data|sdk/typescript/dist)/' },
  },
};
