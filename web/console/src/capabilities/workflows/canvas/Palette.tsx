import { Button } from 'react-aria-components';
import { useCanvasText } from './messages.ts';
import { PALETTE } from './node-types.ts';

/** One button per node type, named "Add <type>": each adds a node of that type, selected, so its panel opens. */
export function Palette({ onAdd }: { onAdd(type: string): void }) {
  const t = useCanvasText();
  return (
    <nav className="palette" aria-labelledby="palette-title">
      <h2 id="palette-title">{t('paletteTitle')}</h2>
      <ul>
        {PALETTE.map((type) => (
          <li key={type}>
            <Button className="react-aria-Button palette-button" onPress={() => onAdd(type)}>
              {t('addNode', { type })}
            </Button>
          </li>
        ))}
      </ul>
    </nav>
  );
}
