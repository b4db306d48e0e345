/**
 * A provider call that failed: a headline in the person's language for its kind, then the
 * technical detail as it came (English, with the provider's own words; not translated).
 */
import { failureText, type ProviderFailureKind } from '../../shared/contract/providers';
import { useSay } from '../i18n/say';

/** The headline of a failure's kind, in the person's language ("The provider is rate-limiting: …"). */
export function FailureHeadline({ failure }: { failure: ProviderFailureKind }) {
  const say = useSay();
  return <strong data-testid="provider-failure">{say(failureText(failure))} </strong>;
}

/** The headline (when the kind is known) and the detail. */
export function ProviderFailure({ failure, detail }: { failure?: ProviderFailureKind; detail: string }) {
  return (
    <>
      {failure && <FailureHeadline failure={failure} />}
      <span translate="no">{detail}</span>
    </>
  );
}
