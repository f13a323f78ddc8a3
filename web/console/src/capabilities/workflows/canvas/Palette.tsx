import { Button } from 'react-aria-components';
import { useCanvasText } from './messages.ts';
import { inSentence, useNodeText } from './node-text.ts';
import { PALETTE } from './node-types.ts';

/**
 * One button per node type, named "Add <its name>" ("Add knowledge retrieval"): each adds a node of
 * that type, selected, so its panel opens. The type id the API takes shows small beside it.
 */
export function Palette({ onAdd }: { onAdd(type: string): void }) {
  const t = useCanvasText();
  const words = useNodeText();
  return (
    <nav className="palette" aria-labelledby="palette-title">
      <h2 id="palette-title">{t('paletteTitle')}</h2>
      <ul>
        {PALETTE.map((type) => (
          <li key={type}>
            <Button className="react-aria-Button palette-button" onPress={() => onAdd(type)} aria-label={t('addNode', { name: inSentence(words.typeName(type), words.language) })}>
              <span>{t('addNode', { name: inSentence(words.typeName(type), words.language) })}</span>
              <span className="type-id" aria-hidden="true">{type}</span>
            </Button>
          </li>
        ))}
      </ul>
    </nav>
  );
}
