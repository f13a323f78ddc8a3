// Guard rails checked in `npm test` by `npm run lint` (issue 13): file and function budgets that keep
// the code readable (STYLE.md, "Castore: discipline") and no promise left floating unnoticed.
// Only these rules: formatting and the rest of style are left to review.
import { defineConfig, globalIgnores } from 'eslint/config';
import tseslint from 'typescript-eslint';

const budgets = {
  'max-lines': ['error', { max: 250, skipBlankLines: true, skipComments: true }],
  complexity: ['error', 20],
  'max-params': ['error', 5],
};

export default defineConfig(
  // Built or generated output is not source: the console's bundle, the SDK's build and its OpenAPI types.
  globalIgnores(['**/node_modules/**', 'data/**', 'dist/**', 'schemas/json/**', 'sdk/typescript/dist/**', 'sdk/typescript/src/generated/**', '.venv/**', '.kafka/**', 'kafka/lib/**']),
  { linterOptions: { reportUnusedDisableDirectives: 'error' } },
  {
    files: ['**/*.{js,mjs,cjs}'],
    rules: budgets,
  },
  {
    files: ['**/*.{ts,tsx}'],
    extends: [tseslint.configs.base],
    // The console's build config runs in Node, outside the console's browser project.
    languageOptions: { parserOptions: { projectService: { allowDefaultProject: ['web/console/vite.config.ts'] }, tsconfigRootDir: import.meta.dirname } },
    rules: { ...budgets, '@typescript-eslint/no-floating-promises': 'error' },
  },
  {
    // Event data is typed by the event catalog (schemas/events): narrow on `type` or `in`, never cast.
    files: ['src/**/*.ts', 'projections/**/*.ts', 'consumers/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: "TSAsExpression > MemberExpression.expression[property.name='data'][object.name=/^(event|recorded|e)$/]", message: 'Do not cast event data: narrow the event by its type (RecordedEvent<T>) or with `in`.' },
      ],
    },
  },
);
