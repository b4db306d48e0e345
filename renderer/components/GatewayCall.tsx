/**
 * What marks a provider call that came through the console's provider gateway (an OpenAI or
 * Anthropic API call a server, a script or an agent framework made), wherever an item or a history
 * entry is shown: a badge naming the API, who called (a server, or a named token), and the facts
 * of the request (the endpoint, the model asked for, streamed, the earlier response it continues,
 * the texts of an embeddings call, system messages moved into the system prompt, fields not
 * carried over). Nothing for MCP sampling requests.
 */
import { useTranslation } from 'react-i18next';
import { endpointOf, type GatewayFacts } from '../../shared/contract/gateway';

/** "OpenAI API call" / "Anthropic API call" (`short`: "OpenAI API", for a queue row), or nothing. */
export function GatewayBadge({ gateway, short = false }: { gateway?: GatewayFacts; short?: boolean }) {
  const { t } = useTranslation('common');
  if (!gateway) return null;
  return (
    <span className="badge tone-info gateway-badge" title={t('gateway.badgeTitle')} data-testid="gateway-badge" data-api={gateway.api}>
      {short ? t(`gateway.api.${gateway.api}`) : t(`gateway.call.${gateway.api}`)}
    </span>
  );
}

/** Whether a call came with a named token (its `serverId` is then `gateway:<name>`, no server behind it). */
export function isTokenCall(gateway?: GatewayFacts): gateway is GatewayFacts & { caller: { kind: 'token'; name: string } } {
  return gateway?.caller.kind === 'token';
}

/**
 * Who made the call, as text: "token ci-script" for a named token, else the server's id (also for
 * an MCP sampling request, which has no `gateway`).
 */
export function GatewayCaller({ gateway, serverId }: { gateway?: GatewayFacts; serverId: string }) {
  const { t } = useTranslation('common');
  if (!isTokenCall(gateway)) return <>{serverId}</>;
  return (
    <span data-testid="gateway-caller" title={t('gateway.tokenTitle')}>
      {t('gateway.token', { name: gateway.caller.name })}
    </span>
  );
}

/**
 * The request's facts as header items: "Responses API", "Asked for gpt-4o", "Streamed",
 * "Continues resp_…", "3 texts to embed", "Moved into the system prompt: messages[2]", "Not
 * carried over: top_p, seed". Each is a separate `<span>` (a header lays them out); nothing for a
 * sampling request.
 */
export function GatewayNotes({ gateway }: { gateway?: GatewayFacts }) {
  const { t } = useTranslation('common');
  if (!gateway) return null;
  return (
    <>
      <span data-testid="gateway-endpoint" title={t('gateway.endpointTitle')}>
        {t(`gateway.endpoint.${endpointOf(gateway)}`)}
      </span>
      <span data-testid="gateway-model">
        <span className="muted">{t('gateway.askedFor')} </span>
        <strong className="mono">{gateway.requestedModel}</strong>
      </span>
      {gateway.stream && (
        <span data-testid="gateway-stream" title={t('gateway.streamedTitle')}>
          {t('gateway.streamed')}
        </span>
      )}
      {gateway.previousResponseId && (
        <span data-testid="gateway-continues" title={t('gateway.continuesTitle')}>
          <span className="muted">{t('gateway.continues')} </span>
          <span className="mono" translate="no">
            {gateway.previousResponseId}
          </span>
        </span>
      )}
      {gateway.embeddings && (
        <span data-testid="gateway-embeddings" title={t('gateway.embeddingsTitle')}>
          {t('gateway.embeddings', { count: gateway.embeddings.inputs })}
          {gateway.embeddings.dimensions !== undefined && <span className="muted"> · {t('gateway.dimensions', { count: gateway.embeddings.dimensions })}</span>}
        </span>
      )}
      {gateway.movedToSystem && gateway.movedToSystem.length > 0 && (
        <span data-testid="gateway-moved" title={t('gateway.movedTitle')}>
          <span className="muted">{t('gateway.moved')} </span>
          <span className="mono" translate="no">
            {gateway.movedToSystem.join(', ')}
          </span>
        </span>
      )}
      {gateway.ignored && gateway.ignored.length > 0 && (
        <span data-testid="gateway-ignored" title={t('gateway.ignoredTitle')}>
          <span className="muted">{t('gateway.ignored')} </span>
          <span className="mono" translate="no">
            {gateway.ignored.join(', ')}
          </span>
        </span>
      )}
    </>
  );
}
