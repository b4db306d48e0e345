/**
 * Shown on the response review when a model with prompt-based tools (seeds/004) replied with
 * something that looked like a tool call but could not be used — invalid JSON, prose around the
 * JSON, or a tool that was not offered — so the person sees it as such instead of a silent text
 * answer (issue 4). Reads `_meta[PROMPT_TOOL_META_KEY]` of the generated blocks.
 */
import { PROMPT_TOOL_META_KEY } from '../../../shared/providers';
import { contentBlocks, type CreateMessageResult } from '../../../shared/sampling';
import { Banner } from '../../components/common';

const TITLES: Record<string, string> = {
  'invalid-json': 'The model tried to call a tool, but its JSON is not valid',
  'unknown-tool': 'The model called a tool that was not offered',
  mixed: 'The model mixed a tool call with other text',
};

/** The banner, or nothing when the generated response has no prompt-tool problem. */
export function PromptToolNotice({ result }: { result: CreateMessageResult | undefined }) {
  if (!result) return null;
  const problems = contentBlocks(result.content).flatMap((b) => {
    const meta = (b._meta as Record<string, unknown> | undefined)?.[PROMPT_TOOL_META_KEY] as { problem?: unknown; message?: unknown } | undefined;
    return meta && typeof meta.message === 'string' ? [{ problem: String(meta.problem), message: meta.message }] : [];
  });
  if (problems.length === 0) return null;
  return (
    <>
      {problems.map((p, i) => (
        <Banner key={i} tone="warn" title={TITLES[p.problem] ?? 'The tool call could not be used'} testId="prompt-tool-problem">
          {p.message} It is shown below as the model wrote it; it goes to the server as text unless you edit it.
        </Banner>
      ))}
    </>
  );
}
