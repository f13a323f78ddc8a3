import { availableParallelism } from 'node:os';
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

test('parser settings: KBQA_OCR_READERS (one a core, two at most by default) reaches a parser process', (t) => {
  t.is(loadConfig({}).ingestion.ocrReaders, Math.min(2, availableParallelism()));
  const config = loadConfig({ KBQA_OCR_READERS: '1' });
  t.is(config.ingestion.ocrReaders, 1);
  const args = settingsArgs({ ocrEngine: 'wasm', ocrReaders: 2 });
  t.deepEqual(args, ['--ocr-engine=wasm', '--ocr-readers=2']);
  applySettingsArgs(args);
  t.like(parserProcessSettings(), { ocrEngine: 'wasm', ocrReaders: 2 });
  applySettingsArgs([]);
  t.is(parserProcessSettings().ocrReaders, 1, 'a process given nothing reads one page part at a time');
});

test('parser settings: an unknown engine or argument is refused, not ignored', (t) => {
  t.throws(() => loadConfig({ KBQA_OCR_ENGINE: 'fast' }), { message: /KBQA_OCR_ENGINE/ });
  t.throws(() => loadConfig({ KBQA_OCR_READERS: '3' }), { message: /KBQA_OCR_READERS/ });
  t.throws(() => applySettingsArgs(['--ocr-engine=fast']), { message: /--ocr-engine=fast/ });
  t.throws(() => applySettingsArgs(['--ocr-readers=0']), { message: /--ocr-readers=0/ });
  t.throws(() => applySettingsArgs(['--verbose']), { message: /--verbose/ });
});
