/** A request's messages, system prompt and limits, read-only. */
import { useTranslation } from 'react-i18next';
import { contentBlocks, type CreateMessageParams } from '../../shared/contract/sampling';
import { ReadOnlyBlocks } from './Blocks';
import { Facts } from './common';

/** Messages and system prompt of a request, read-only. */
export function ParamsView({ params }: { params: CreateMessageParams }) {
  const { t } = useTranslation('common');
  return (
    <>
      {params.systemPrompt !== undefined && (
        <div className="system-view">
          <span className="field-label">{t('blocks.systemPrompt')}</span>
          <pre className="pre-text">{params.systemPrompt}</pre>
        </div>
      )}
      <ol className="messages">
        {params.messages.map((m, i) => (
          <li key={i} className={`message role-${m.role}`}>
            <div className="message-role">{m.role === 'user' ? t('blocks.user') : t('blocks.assistant')}</div>
            <div className="message-body">
              <ReadOnlyBlocks blocks={contentBlocks(m.content)} />
            </div>
          </li>
        ))}
      </ol>
      <Facts
        rows={[
          [t('blocks.maxTokens'), String(params.maxTokens)],
          params.temperature !== undefined && [t('blocks.temperature'), String(params.temperature)],
        ]}
      />
    </>
  );
}
