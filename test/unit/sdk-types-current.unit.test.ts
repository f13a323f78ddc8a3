import { readFileSync } from 'node:fs';
import test from 'ava';
import { generateSdkTypes, SDK_TYPES_FILE } from '../../scripts/generate-sdk-types.ts';

/** The first line where two texts part, 1-based; 0 when they are the same. */
function firstDifferentLine(a: string, b: string): number {
  const [linesA, linesB] = [a.split('\n'), b.split('\n')];
  for (let i = 0; i < Math.max(linesA.length, linesB.length); i++) if (linesA[i] !== linesB[i]) return i + 1;
  return 0;
}

// The SDK's resource types are aliases into this file: a stale one lets the SDK promise shapes the API no longer has.
test('the SDK types file holds exactly what openapi-typescript makes of the current OpenAPI document', async (t) => {
  const line = firstDifferentLine(readFileSync(SDK_TYPES_FILE, 'utf8'), await generateSdkTypes());
  t.is(line, 0, `sdk/typescript/src/generated/openapi.ts is out of date with the API from line ${line}: run \`npm run sdk:types\` and commit it`);
});
