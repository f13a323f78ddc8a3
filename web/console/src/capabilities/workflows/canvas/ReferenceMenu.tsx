import { Button, Menu, MenuItem, MenuSection, MenuTrigger, Popover, Header } from 'react-aria-components';
import type { CanvasGraph } from './graph.ts';
import { upstreamOf } from './graph.ts';
import { useCanvasText } from './messages.ts';
import { outputsOf } from './node-types.ts';

type Props = { graph: CanvasGraph; nodeId: string; field: string; onInsert(reference: string): void };

/** "Insert reference": the outputs of the nodes upstream of this one, as `{{node.field}}`, each inserted where the caret was. */
export function ReferenceMenu({ graph, nodeId, field, onInsert }: Props) {
  const t = useCanvasText();
  const sources = upstreamOf(graph, nodeId).map((node) => ({ id: node.id, fields: outputsOf(node) })).filter((source) => source.fields.length > 0);
  return (
    <MenuTrigger>
      <Button className="react-aria-Button quiet small" aria-label={t('insertReferenceInto', { field })} isDisabled={sources.length === 0}>
        {t('insertReference')}
      </Button>
      <Popover placement="bottom start">
        <Menu onAction={(key) => onInsert(String(key))}>
          {sources.map((source) => (
            <MenuSection key={source.id}>
              <Header className="menu-header">{source.id}</Header>
              {source.fields.map((output) => {
                const reference = `{{${source.id}.${output}}}`;
                return (
                  <MenuItem key={reference} id={reference} textValue={reference}>
                    {reference}
                  </MenuItem>
                );
              })}
            </MenuSection>
          ))}
        </Menu>
      </Popover>
    </MenuTrigger>
  );
}
