/**
 * The "New token" form's check of a gateway token's name: the contract's schema
 * (`GatewayTokenNameSchema`, the one main checks with), said in the UI language (i18next's
 * instance, namespace `settings`), plus a name already in the list.
 */
import i18next from 'i18next';
import { GatewayTokenNameSchema } from '../../../shared/contract/gateway.js';

/** Why `name` cannot be a new token's name (in the UI language), or undefined when it can. */
export function tokenNameProblem(name: string, existing: readonly string[]): string | undefined {
  const parsed = GatewayTokenNameSchema.safeParse(name);
  if (!parsed.success) {
    const code = parsed.error.issues[0]?.code;
    if (code === 'too_small') return i18next.t('settings:gateway.nameRequired');
    if (code === 'too_big') return i18next.t('settings:gateway.nameTooLong', { max: 64 });
    return i18next.t('settings:gateway.nameChars');
  }
  if (existing.includes(name)) return i18next.t('settings:gateway.nameTaken', { name });
  return undefined;
}
