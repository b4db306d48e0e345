/**
 * The field error under an input where a person types a pattern (rule conditions, redaction
 * patterns): patterns run on a linear-time engine (re2js), so look-ahead and back-references are
 * refused, and this says so in the person's language, with the engine's own words as detail.
 */
import { useTranslation } from 'react-i18next';
import { userPatternProblemKind } from '../../../shared/domain/user-pattern';

/** The translated problem with `source`, or undefined when the pattern can be used. */
export function usePatternProblem(source: string): string | undefined {
  const { t } = useTranslation('rules');
  const problem = source ? userPatternProblemKind(source) : undefined;
  if (!problem) return undefined;
  const key = problem.kind === 'back_reference' ? 'pattern.backReference' : problem.kind === 'look_ahead' ? 'pattern.lookAhead' : 'pattern.invalid';
  return t(key, { detail: problem.detail });
}

/** Renders {@link usePatternProblem}'s message as a field error, or nothing. */
export function PatternProblem({ message, testId }: { message: string | undefined; testId: string }) {
  if (!message) return null;
  return (
    <span className="field-error small" data-testid={testId}>
      {message}
    </span>
  );
}
