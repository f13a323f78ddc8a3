/**
 * `npm run lint:openapi`: the OpenAPI document `GET /v1/openapi.json` serves, built from the
 * route table without a runtime, written to a temp file and linted by Redocly (redocly.yaml);
 * any problem fails.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeApi } from '../src/capabilities/describe-api.ts';
import { VERSION } from '../src/main.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'kbqa-openapi-'));
try {
  const file = join(dir, 'openapi.json');
  writeFileSync(file, JSON.stringify(describeApi(VERSION), null, 2));
  const lint = spawnSync(join(root, 'node_modules', '.bin', 'redocly'), ['lint', file, '--config', join(root, 'redocly.yaml')], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
  });
  if (lint.error) throw lint.error;
  process.exitCode = lint.status ?? 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
