/**
 * Settings → People, on a team server for admins (`whoAmI`): who may sign in — name, role, assigned
 * servers, how they sign in, when added — with "Change role", "New password" and "Remove" (asked
 * twice), and the "Add a person" form. Main checks every change (admins only; not oneself) and
 * records it in the audit trail; removing a person ends their sessions at once.
 */
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { PERSON_PASSWORD_MIN, type PersonView } from '../../../shared/contract/people';
import { TEAM_ROLES, type TeamRole } from '../../../shared/contract/roles';
import { getApi } from '../../api';
import { errorText } from '../../api/error-text';
import { ActionError, Section } from '../../components/common';
import { dateTime, shortDateTime } from '../../format';
import { useAction } from '../../hooks';
import { useViewer } from '../../viewer';

/** `a, b` → server ids; empty → every server (undefined). */
const serversOf = (text: string): string[] | undefined => {
  const list = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return list.length > 0 ? list : undefined;
};

function RoleSelect({ id, value, onChange }: { id: string; value: TeamRole; onChange(role: TeamRole): void }) {
  const { t } = useTranslation('settings');
  return (
    <select id={id} value={value} onChange={(e) => onChange(e.target.value as TeamRole)} data-testid={id}>
      {TEAM_ROLES.map((r) => (
        <option key={r} value={r}>
          {t(`people.role.${r}`)}
        </option>
      ))}
    </select>
  );
}

/** One person's row actions: change role (and servers), a new password, remove. */
function PersonActions({ person, self, onChanged }: { person: PersonView; self: boolean; onChanged(): void }) {
  const { t } = useTranslation('settings');
  const [mode, setMode] = useState<'idle' | 'role' | 'password' | 'remove'>('idle');
  const [role, setRole] = useState<TeamRole>(person.role);
  const [servers, setServers] = useState((person.servers ?? []).join(', '));
  const [password, setPassword] = useState('');
  const done = () => (setMode('idle'), setPassword(''), onChanged());
  const saveRole = useAction(async () => (await getApi().setPersonRole({ subject: person.subject, role, ...(role === 'reviewer' && serversOf(servers) && { servers: serversOf(servers) }) }), done()));
  const savePassword = useAction(async () => (await getApi().resetPassword({ subject: person.subject, password }), done()));
  const remove = useAction(async () => (await getApi().removePerson({ subject: person.subject }), done()));
  if (mode === 'idle') {
    return (
      <span className="gateway-actions">
        <button type="button" className="btn-small" disabled={self} onClick={() => setMode('role')} aria-label={t('people.changeRoleLabel', { name: person.name })} data-testid="person-change-role">
          {t('people.changeRole')}
        </button>
        {!person.ssoIssuer && (
          <button type="button" className="btn-small" onClick={() => setMode('password')} aria-label={t('people.newPasswordLabel', { name: person.name })} data-testid="person-new-password">
            {t('people.newPassword')}
          </button>
        )}
        <button type="button" className="btn-small" disabled={self} onClick={() => setMode('remove')} aria-label={t('people.removeLabel', { name: person.name })} data-testid="person-remove">
          {t('people.remove')}
        </button>
      </span>
    );
  }
  const cancel = (
    <button type="button" className="btn-small" onClick={() => setMode('idle')} data-testid="person-cancel">
      {t('people.cancel')}
    </button>
  );
  if (mode === 'remove') {
    return (
      <span className="gateway-confirm" role="group" aria-label={t('people.removeLabel', { name: person.name })}>
        <span className="small">{t('people.removeQuestion')}</span>
        <button type="button" className="btn-small btn-danger" disabled={remove.pending} onClick={() => void remove.run()} data-testid="person-remove-confirm">
          {t('people.removeConfirm', { name: person.name })}
        </button>
        <button type="button" className="btn-small" autoFocus onClick={() => setMode('idle')} data-testid="person-keep">
          {t('people.keep')}
        </button>
        <ActionError error={remove.error} />
      </span>
    );
  }
  if (mode === 'password') {
    return (
      <span className="gateway-confirm">
        <input type="password" aria-label={t('people.newPasswordLabel', { name: person.name })} autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} data-testid="person-password-input" />
        <button type="button" className="btn-small" disabled={savePassword.pending || password.length < PERSON_PASSWORD_MIN} onClick={() => void savePassword.run()} data-testid="person-password-save">
          {t('people.save')}
        </button>
        {cancel}
        <ActionError error={savePassword.error} />
      </span>
    );
  }
  return (
    <span className="gateway-confirm">
      <RoleSelect id={`person-role-${person.subject}`} value={role} onChange={setRole} />
      {role === 'reviewer' && <input aria-label={t('people.serversLabel')} placeholder={t('people.allServers')} value={servers} onChange={(e) => setServers(e.target.value)} data-testid="person-servers-input" />}
      <button type="button" className="btn-small" disabled={saveRole.pending} onClick={() => void saveRole.run()} data-testid="person-role-save">
        {t('people.save')}
      </button>
      {cancel}
      <ActionError error={saveRole.error} />
    </span>
  );
}

function PeopleTable({ people, self, onChanged }: { people: PersonView[]; self: string | undefined; onChanged(): void }) {
  const { t } = useTranslation('settings');
  if (people.length === 0) return <p className="muted small">{t('people.none')}</p>;
  return (
    <div className="gateway-table-scroll">
      <table className="gateway-table" data-testid="people-table">
        <thead>
          <tr>
            <th scope="col">{t('people.colName')}</th>
            <th scope="col">{t('people.colRole')}</th>
            <th scope="col">{t('people.colServers')}</th>
            <th scope="col">{t('people.colSignIn')}</th>
            <th scope="col">{t('people.colAdded')}</th>
            <th scope="col">{t('people.colActions')}</th>
          </tr>
        </thead>
        <tbody>
          {people.map((p) => (
            <tr key={p.subject} data-testid="person" data-name={p.name}>
              <td className="strong">{p.name}</td>
              <td>{t(`people.role.${p.role}`)}</td>
              <td className="mono small">{p.servers ? p.servers.join(', ') : <span className="muted">{t('people.allServers')}</span>}</td>
              <td className="small">{p.ssoIssuer ? <span title={p.ssoIssuer}>{t('people.signInSso')}</span> : t('people.signInPassword')}</td>
              <td title={dateTime(p.createdAt)}>{shortDateTime(p.createdAt)}</td>
              <td>
                <PersonActions person={p} self={p.subject === self} onChanged={onChanged} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The "Add a person" form: name, role, a reviewer's servers, and a password or a single sign-on identity. */
function AddPersonForm({ onAdded }: { onAdded(): void }) {
  const { t } = useTranslation('settings');
  const [name, setName] = useState('');
  const [role, setRole] = useState<TeamRole>('reviewer');
  const [servers, setServers] = useState('');
  const [password, setPassword] = useState('');
  const [issuer, setIssuer] = useState('');
  const [subject, setSubject] = useState('');
  const sso = issuer.trim() !== '' && subject.trim() !== '';
  const add = useAction(async () => {
    const list = role === 'reviewer' ? serversOf(servers) : undefined;
    await getApi().addPerson({ name: name.trim(), role, ...(list && { servers: list }), ...(password && { password }), ...(sso && { sso: { issuer: issuer.trim(), subject: subject.trim() } }) });
    setName('');
    setPassword('');
    setServers('');
    setIssuer('');
    setSubject('');
    onAdded();
  });
  const ready = name.trim() !== '' && (password.length >= PERSON_PASSWORD_MIN || sso);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (ready) void add.run();
  };
  return (
    <form className="people-add" onSubmit={submit} data-testid="person-add">
      <h4 className="field-label">{t('people.addTitle')}</h4>
      <div className="people-add-row">
        <label className="field">
          {t('people.name')}
          <input value={name} autoComplete="off" onChange={(e) => setName(e.target.value)} data-testid="person-add-name" />
        </label>
        <label className="field" htmlFor="person-add-role">
          {t('people.colRole')}
          <RoleSelect id="person-add-role" value={role} onChange={setRole} />
        </label>
        {role === 'reviewer' && (
          <label className="field">
            {t('people.serversLabel')}
            <input placeholder={t('people.allServers')} value={servers} onChange={(e) => setServers(e.target.value)} data-testid="person-add-servers" />
          </label>
        )}
        <label className="field">
          {t('people.password')}
          <input type="password" autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} data-testid="person-add-password" />
        </label>
      </div>
      <span className="field-help">{t('people.passwordHelp', { min: PERSON_PASSWORD_MIN })}</span>
      <details>
        <summary className="small">{t('people.ssoTitle')}</summary>
        <div className="people-add-row">
          <label className="field">
            {t('people.ssoIssuer')}
            <input className="mono" placeholder={t('people.ssoIssuerExample')} value={issuer} onChange={(e) => setIssuer(e.target.value)} data-testid="person-add-issuer" />
          </label>
          <label className="field">
            {t('people.ssoSubject')}
            <input className="mono" value={subject} onChange={(e) => setSubject(e.target.value)} data-testid="person-add-subject" />
          </label>
        </div>
      </details>
      <button type="submit" disabled={!ready || add.pending} data-testid="person-add-submit">
        {t('people.add')}
      </button>
      <ActionError error={add.error} />
    </form>
  );
}

/** Settings → People: only for an admin of a team server; nothing on the desktop. */
export function PeopleSection() {
  const { t } = useTranslation('settings');
  const viewer = useViewer();
  const [people, setPeople] = useState<PersonView[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const admin = viewer?.role === 'admin';
  const load = useCallback(() => {
    getApi()
      .listPeople({})
      .then(
        (r) => (setPeople(r.people), setError(null)),
        (err: unknown) => setError(errorText(err)),
      );
  }, []);
  useEffect(() => {
    if (admin) load();
  }, [admin, load]);
  if (!admin) return null;
  return (
    <Section title={t('people.title')} testId="settings-people">
      <p className="field-help">{t('people.help')}</p>
      <ActionError error={error} />
      {people && <PeopleTable people={people} self={viewer.subject} onChanged={load} />}
      <AddPersonForm onAdded={load} />
    </Section>
  );
}
