/**
 * Shown on the response review when a model with prompt-based tools replied with
 * something that looked like a tool call but could not be used — invalid JSON, prose around the
 * JSON, or a tool that was not offered — so the person sees it as such instead of a silent text
 * answer. Reads `_meta[PROMPT_TOOL_META_KEY]` of the generated blocks.
 */
import { useTranslation } from 'react-i18next';
import { PROMPT_TOOL_META_KEY } from '../../../shared/contract/providers';
import { contentBlocks, type CreateMessageResult } from '../../../shared/contract/sampling';
import { Banner } from '../../components/common';

/** The problems with a title of their own (`providers:promptTool.<problem>`); others get a general one. */
const TITLED = ['invalid-json', 'unknown-tool', 'mixed'] as const;

/** The banner, or nothing when the generated response has no prompt-tool problem. */
export function PromptToolNotice({ result }: { result: CreateMessageResult | undefined }) {
  const { t } = useTranslation('providers');
  if (!result) return null;
  const problems = contentBlocks(result.content).flatMap((b) => {
    const meta = (b._meta as Record<string, unknown> | undefined)?.[PROMPT_TOOL_META_KEY] as { problem?: unknown; message?: unknown } | undefined;
    return meta && typeof meta.message === 'string' ? [{ problem: String(meta.problem), message: meta.message }] : [];
  });
  if (problems.length === 0) return null;
  return (
    <>
      {problems.map((p, i) => (
        <Banner key={i} tone="warn" title={t(`promptTool.${TITLED.find((x) => x === p.problem) ?? 'other'}`)} testId="prompt-tool-problem">
          {p.message} {t('promptTool.shownBelow')}
        </Banner>
      ))}
    </>
  );
}
