import { Cell, Column, Row, Table, TableBody, TableHeader } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { type Answer, api } from '../../api/client.ts';
import { ConfirmButton } from '../knowledge-bases/ConfirmButton.tsx';
import { useApiKeyText } from './messages.ts';

export type ApiKey = Answer<'/v1/api-keys', 'get'>['data'][number];

type Props = {
  keys: ApiKey[];
  /** Knowledge-base names by id, to say what a limited key reaches. */
  kbNames: Map<string, string>;
  /** The signed-in key's id: it is not offered for revocation (that would end this session mid-click). */
  ownKeyId: string | undefined;
  onRevoked(id: string): void;
};

/** The workspace's keys: name, prefix, scope, reach, dates, state, and a Revoke behind a confirmation. */
export function ApiKeyTable({ keys, kbNames, ownKeyId, onRevoked }: Props) {
  const t = useApiKeyText();
  const { i18n } = useTranslation();
  const dates = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium' });
  const state = (key: ApiKey) => (key.revoked_at ? 'revoked' : key.expires_at && Date.parse(key.expires_at) < Date.now() ? 'expired' : 'active');
  return (
    <Table aria-label={t('listLabel')} className="react-aria-Table keys-table">
      <TableHeader>
        <Column isRowHeader>{t('name')}</Column>
        <Column>{t('key')}</Column>
        <Column>{t('scopes')}</Column>
        <Column>{t('knowledgeBases')}</Column>
        <Column>{t('created')}</Column>
        <Column>{t('expires')}</Column>
        <Column>{t('status')}</Column>
        <Column>{t('actions')}</Column>
      </TableHeader>
      <TableBody items={keys}>
        {(key) => (
          <Row id={key.id}>
            <Cell>{key.name}</Cell>
            <Cell>
              <code>{key.prefix}…</code>
            </Cell>
            <Cell className="scope">{key.scopes.join(', ')}</Cell>
            <Cell>{key.knowledge_base_ids ? key.knowledge_base_ids.map((id) => kbNames.get(id) ?? id).join(', ') : <span className="muted">{t('allKnowledgeBases')}</span>}</Cell>
            <Cell>{dates.format(new Date(key.created_at))}</Cell>
            <Cell>{key.expires_at ? dates.format(new Date(key.expires_at)) : <span className="muted">{t('never')}</span>}</Cell>
            <Cell>
              <span className={`status status-${state(key)}`}>{t(state(key))}</span>
            </Cell>
            <Cell>
              {!key.revoked_at && key.id !== ownKeyId && (
                <ConfirmButton
                  label={t('revoke')}
                  ariaLabel={t('revokeKey', { name: key.name })}
                  confirmLabel={t('revoke')}
                  cancelLabel={t('cancel')}
                  question={t('confirmRevoke', { name: key.name })}
                  onConfirm={async () => {
                    await api.DELETE('/v1/api-keys/{key_id}', { params: { path: { key_id: key.id } } });
                    onRevoked(key.id);
                  }}
                />
              )}
            </Cell>
          </Row>
        )}
      </TableBody>
    </Table>
  );
}
