/**
 * The house rules that keep the layers apart (docs/architecture.md): checked in `npm test` by
 * `npm run lint:deps`. Tests, benchmarks and scripts may reach anything.
 *
 * Where two layers need the same thing, it moves below both rather than one importing the other:
 * pure vocabulary to src/domain (media types), contracts to src/ports (the parse contract,
 * ApiError, MediaTypeDetector), and utilities that know nothing of KBQA to src/lib (retrying).
 */

/** On top of everything: the entry points, the wiring, the configuration and the capability indexes. Nothing below imports them. */
const COMPOSITION = ['^src/(composition|cli|capabilities)/', '^src/(main|config)\\.ts$'];

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
      name: 'ports-are-contracts',
      severity: 'error',
      comment: 'src/ports declares what the app needs and the adapters provide: it imports the domain, the schemas and src/lib, never a side of the contract.',
      from: { path: '^src/ports/' },
      to: { path: ['^src/(app|http)/', '^(consumers|projections)/', ...COMPOSITION] },
    },
    {
      name: 'app-not-the-edges',
      severity: 'error',
      comment: 'The application services are driven by HTTP and the consumers and wired by the composition root; they import none of them.',
      from: { path: '^src/app/' },
      to: { path: ['^src/http/', '^consumers/', ...COMPOSITION] },
    },
    {
      name: 'projections-are-folds',
      severity: 'error',
      comment: 'A projection folds events into a read model: it imports the domain and the schemas, nothing that runs it.',
      from: { path: '^projections/' },
      to: { path: ['^src/(app|http|ports)/', '^consumers/', ...COMPOSITION] },
    },
    {
      name: 'drivers-not-the-composition',
      severity: 'error',
      comment: 'HTTP and the consumers drive the app and the composition root wires them: they do not import it.',
      from: { path: '^(src/http|consumers)/' },
      to: { path: COMPOSITION },
    },
    {
      name: 'consumers-not-http',
      severity: 'error',
      comment: 'Consumers react to events in the background: what they share with the routes lives in src/app.',
      from: { path: '^consumers/' },
      to: { path: '^src/http/' },
    },
    {
      name: 'http-not-consumers',
      severity: 'error',
      comment: 'Routes answer requests; what they share with the background consumers lives in src/app.',
      from: { path: '^src/http/' },
      to: { path: '^consumers/' },
    },
    {
      name: 'schemas-are-leaves',
      severity: 'error',
      comment:
        'The event and HTTP schemas are the vocabulary every layer speaks: they import only schemas, and the workflow node types (src/domain/workflow/nodes/, pure definitions whose config schemas make up the graph schema, so that a node type is one file).',
      from: { path: '^schemas/' },
      to: { path: ['^src/', '^(consumers|projections)/'], pathNot: ['^src/domain/workflow/nodes/', '^src/domain/workflow/inputs\\.ts$'] },
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
        'The parsers turn a file\'s bytes into blocks: besides their libraries they import the domain (blocks, media types), the ports they implement, src/lib and the schemas, never the app, HTTP, adapters, consumers, projections or the composition.',
      from: { path: '^src/parsing/' },
      to: { path: ['^src/(app|http|adapters)/', '^(consumers|projections)/', ...COMPOSITION] },
    },
    {
      name: 'parsing-language-below-the-formats',
      severity: 'error',
      comment:
        'src/parsing/language (charsets, normalisation, repair, language detection) serves every format folder, so it imports none of them: a format imports it, never the other way.',
      from: { path: '^src/parsing/language/' },
      to: { path: '^src/parsing/(?!language/)' },
    },
    {
      name: 'parsing-documents-without-pages-drawn',
      severity: 'error',
      comment:
        'Office files, web pages and mail are read from their structure: only PDFs and images (pdf/, ocr/, which read each other for scanned pages) draw pages or run OCR, so office/ and web-mail/ import neither.',
      from: { path: '^src/parsing/(office|web-mail)/' },
      to: { path: '^src/parsing/(pdf|ocr)/' },
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
      name: 'adapters-below-the-drivers',
      severity: 'error',
      comment: 'Adapters are driven through the ports: they import none of HTTP, the consumers, the projections or the composition.',
      from: { path: '^src/adapters/' },
      to: { path: ['^src/http/', '^(consumers|projections)/', ...COMPOSITION] },
    },
    {
      name: 'lib-is-standalone',
      severity: 'error',
      comment: 'src/lib holds utilities that know nothing of KBQA (backoff, waiting for a position), so any layer may use them: it imports only itself.',
      from: { path: '^src/lib/' },
      to: { pathNot: ['^src/lib/', '^node_modules/', '^node:'], dependencyTypesNot: ['core'] },
    },
    {
      name: 'web-is-the-browser',
      severity: 'error',
      comment:
        "web/ runs in the visitor's browser: it imports only web/, browser packages and the API's generated types (sdk/typescript/src/generated), nothing of the server; the server reads its sources as files to bundle (src/http/landing/bundle.ts) or serves the console's build (src/http/console/), never imports them. vite.config.ts is the console's build, run by Node.",
      from: { path: '^web/', pathNot: '^web/console/vite\\.config\\.ts$' },
      to: {
        pathNot: [
          '^web/',
          '^sdk/typescript/src/generated/',
          '^node_modules/(eventsource-parser|react|react-dom|react-aria-components|react-router|i18next|react-i18next|openapi-fetch|vite)/',
        ],
      },
    },
    {
      name: 'server-not-web',
      severity: 'error',
      comment: 'The browser code is bundled by path (src/http/landing/bundle.ts), so no server module imports it.',
      from: { path: '^(src|projections|consumers|schemas|bin)/' },
      to: { path: '^web/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '^(node_modules|data|sdk/typescript/dist)/' },
  },
};
