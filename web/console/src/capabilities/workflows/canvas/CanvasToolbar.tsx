import { Button, Input, Label, TextField } from 'react-aria-components';
import { ConnectDialog } from './ConnectDialog.tsx';
import { useCanvasText } from './messages.ts';
import type { useGraphEditor } from './use-graph-editor.ts';
import type { useSave } from './use-save.ts';

type Props = {
  editor: ReturnType<typeof useGraphEditor>;
  saving: ReturnType<typeof useSave>;
  name: string;
  onName(name: string): void;
  dirty: boolean;
  onSave(): void;
  canWrite: boolean;
};

/** The name, the draft and published versions, and the actions on the whole graph: save, publish, undo, redo, lay out, connect, delete. */
export function CanvasToolbar({ editor, saving, name, onName, dirty, onSave, canWrite }: Props) {
  const t = useCanvasText();
  const { selection } = editor;
  const published = saving.saved?.published_version;
  return (
    <>
      <div className="canvas-header spread">
        <TextField value={name} onChange={onName} isReadOnly={!canWrite} className="react-aria-TextField canvas-name">
          <Label>{t('name')}</Label>
          <Input />
        </TextField>
        <p className="muted canvas-versions">
          {saving.saved ? t('draftVersion', { version: saving.saved.version }) : t('notSaved')} ·{' '}
          {published ? t('publishedVersion', { version: published }) : t('notPublished')}
          {dirty && ` · ${t('unsaved')}`}
        </p>
      </div>
      <div className="canvas-toolbar row" role="toolbar" aria-label={t('toolbar')}>
        {canWrite && (
          <>
            <Button className="react-aria-Button primary" onPress={onSave} isDisabled={saving.pending || name.trim() === '' || editor.graph.nodes.length === 0}>
              {t('save')}
            </Button>
            <Button onPress={() => void saving.publish()} isDisabled={!saving.saved || dirty || saving.pending}>
              {t('publish')}
            </Button>
            <Button onPress={editor.undo} isDisabled={!editor.canUndo}>
              {t('undo')}
            </Button>
            <Button onPress={editor.redo} isDisabled={!editor.canRedo}>
              {t('redo')}
            </Button>
          </>
        )}
        <Button onPress={editor.layOut}>{t('layOut')}</Button>
        {canWrite && (
          <>
            <ConnectDialog graph={editor.graph} onConnect={editor.connect} />
            <Button
              className="react-aria-Button danger"
              isDisabled={!selection}
              onPress={() => selection && editor.remove(selection.kind === 'node' ? [selection.id] : [], selection.kind === 'edge' ? [selection.key] : [])}
            >
              {selection?.kind === 'edge' ? t('deleteEdge') : t('deleteSelection')}
            </Button>
          </>
        )}
      </div>
    </>
  );
}
