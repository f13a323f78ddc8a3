import test from 'ava';
import { loadConfig } from '../../src/config.ts';
import { applySettingsArgs, parserProcessSettings, settingsArgs } from '../../src/parsing/parser-settings.ts';

test.after.always(() => applySettingsArgs([]));

test('parser settings: KBQA_OCR_ENGINE reaches a parser process through its command line', (t) => {
  t.is(loadConfig({}).ingestion.ocrEngine, 'auto');
  const config = loadConfig({ KBQA_OCR_ENGINE: 'wasm' });
  t.is(config.ingestion.ocrEngine, 'wasm');
  const args = settingsArgs({ ocrEngine: config.ingestion.ocrEngine });
  t.deepEqual(args, ['--ocr-engine=wasm']);
  applySettingsArgs(args);
  t.is(parserProcessSettings().ocrEngine, 'wasm');
  applySettingsArgs([]);
  t.is(parserProcessSettings().ocrEngine, 'auto');
});

test('parser settings: an unknown engine or argument is refused, not ignored', (t) => {
  t.throws(() => loadConfig({ KBQA_OCR_ENGINE: 'fast' }), { message: /KBQA_OCR_ENGINE/ });
  t.throws(() => applySettingsArgs(['--ocr-engine=fast']), { message: /--ocr-engine=fast/ });
  t.throws(() => applySettingsArgs(['--verbose']), { message: /--verbose/ });
});
