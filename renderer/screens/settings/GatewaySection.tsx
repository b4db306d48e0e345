/**
 * Settings → "Provider gateway": whether the loopback gateway listens (its address, or why not),
 * the two base URLs with the variables a caller sets (copyable), the servers launched with it,
 * and the named tokens for callers that are not launched servers. Shown only when main publishes
 * the `gateway` slice.
 */
import { useTranslation } from 'react-i18next';
import type { GatewayView } from '../../../shared/contract/gateway';
import { CopyButton } from '../../components/CopyButton';
import { Banner, Pill, Section } from '../../components/common';
import { useConsole } from '../../store';
import { GatewayTokens } from './GatewayTokens';
import './gateway.css';

/** One API's row: its base URL (with Copy) and the two variables an SDK reads. */
function ApiRow({ api, label, url, urlVar, keyVar }: { api: string; label: string; url?: string; urlVar: string; keyVar: string }) {
  const { t } = useTranslation('settings');
  return (
    <tr data-testid={`gateway-api-${api}`}>
      <th scope="row">{label}</th>
      <td>
        <code translate="no">{urlVar}</code>
      </td>
      <td className="gateway-url">
        {url ? (
          <>
            <span className="mono break" data-testid={`gateway-url-${api}`}>
              {url}
            </span>{' '}
            <CopyButton text={url} label={t('gateway.baseUrlOf', { api: label })} testId={`copy-gateway-url-${api}`} />
          </>
        ) : (
          <span className="muted">{t('gateway.noUrl')}</span>
        )}
      </td>
      <td>
        <code translate="no">{keyVar}</code>
      </td>
    </tr>
  );
}

/** The base URLs and variables of both APIs. */
function Endpoints({ gateway }: { gateway: GatewayView }) {
  const { t } = useTranslation(['settings', 'common']);
  return (
    <div className="gateway-row">
      <p className="field-help">{t('gateway.endpointsHelp')}</p>
      <div className="gateway-table-scroll">
        <table className="gateway-table gateway-endpoints" data-testid="gateway-endpoints">
          <thead>
            <tr>
              <th scope="col">{t('gateway.colApi')}</th>
              <th scope="col">{t('gateway.colUrlVar')}</th>
              <th scope="col">{t('gateway.colUrl')}</th>
              <th scope="col">{t('gateway.colKeyVar')}</th>
            </tr>
          </thead>
          <tbody>
            <ApiRow api="openai" label={t('common:gateway.api.openai')} url={gateway.openaiBaseUrl} urlVar="OPENAI_BASE_URL" keyVar="OPENAI_API_KEY" />
            <ApiRow api="anthropic" label={t('common:gateway.api.anthropic')} url={gateway.anthropicBaseUrl} urlVar="ANTHROPIC_BASE_URL" keyVar="ANTHROPIC_API_KEY" />
          </tbody>
        </table>
      </div>
      <p className="field-help">{t('gateway.keyHelp')}</p>
    </div>
  );
}

/** Which servers are launched with the gateway. */
function InjectedServers({ servers }: { servers: string[] }) {
  const { t } = useTranslation('settings');
  return (
    <div className="gateway-row" data-testid="gateway-servers">
      <div>
        <span className="field-label">{t('gateway.servers')} </span>
        {servers.length > 0 ? <span className="mono">{servers.join(', ')}</span> : <span className="muted">{t('gateway.noServers')}</span>}
      </div>
    </div>
  );
}

/** The "Provider gateway" section, or nothing when main does not run one. */
export function GatewaySection() {
  const { t } = useTranslation('settings');
  const gateway = useConsole((s) => s.mirror?.gateway);
  if (!gateway) return null;
  return (
    <Section title={t('gateway.title')} testId="settings-gateway">
      <p className="field-help">{t('gateway.intro')}</p>
      <div className="gateway-row gateway-status" data-testid="gateway-status">
        {gateway.listening ? (
          <div>
            <Pill tone="ok" testId="gateway-listening">
              {t('gateway.listening')}
            </Pill>{' '}
            {gateway.url && (
              <span className="mono" data-testid="gateway-address">
                {gateway.url}
              </span>
            )}
          </div>
        ) : (
          <Banner tone="warn" title={t('gateway.notListening')} testId="gateway-not-listening">
            {gateway.error ?? t('gateway.notListeningUnknown')}
          </Banner>
        )}
      </div>
      <Endpoints gateway={gateway} />
      <InjectedServers servers={gateway.servers} />
      <GatewayTokens tokens={gateway.tokens} />
    </Section>
  );
}
