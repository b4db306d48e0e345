/**
 * One field of an elicitation form, generated from a flat requestedSchema property: text (email,
 * URL, date, date-time inputs by format), number with bounds, checkbox, single-select as a radio
 * group or a <select>, multi-select as checkboxes. Each has a visible label (the title, else the
 * name), the description, a required marker and its error.
 */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { optionsOf, type Field } from '../../../shared/contract/elicitation';
import { i18n } from '../../i18n';
import { fieldKind, type FieldKind, type RawValue } from './ElicitationModel';

/** Props of {@link ElicitationField}. */
export interface ElicitationFieldProps {
  name: string;
  field: Field;
  required: boolean;
  value: RawValue | undefined;
  error?: string;
  onChange: (value: RawValue) => void;
}

const INPUT_TYPE = { text: 'text', email: 'email', url: 'url', date: 'date', datetime: 'datetime-local', number: 'number' } as const;

/** The field's bounds in words (number range, how many to choose, length, local time), if any. */
function boundsText(field: Field): string | undefined {
  const t = i18n.getFixedT(null, 'queue', 'elicitation');
  if (field.type === 'number' || field.type === 'integer') {
    const { minimum: min, maximum: max } = field;
    const kind = field.type === 'integer' ? t('wholeNumber') : t('number');
    if (min !== undefined && max !== undefined) return t('numberRange', { kind, min, max });
    if (min !== undefined) return t('numberMin', { kind, min });
    if (max !== undefined) return t('numberMax', { kind, max });
    return kind;
  }
  if (field.type === 'array') {
    const { minItems: min, maxItems: max } = field;
    if (min !== undefined && max !== undefined) return min === max ? t('chooseExactly', { n: min }) : t('chooseRange', { min, max });
    if (min !== undefined) return t('chooseMin', { min });
    if (max !== undefined) return t('chooseMax', { max });
  }
  if (field.type === 'string') {
    if (field.format === 'date-time') return t('localTime');
    if (field.minLength !== undefined && field.maxLength !== undefined) return t('charsRange', { min: field.minLength, max: field.maxLength });
    if (field.maxLength !== undefined) return t('charsMax', { max: field.maxLength });
    if (field.minLength !== undefined) return t('charsMin', { min: field.minLength });
  }
  return undefined;
}

/** The ARIA attributes of a field's control: its help and error, invalid, required. */
type FieldAria = { 'aria-describedby': string | undefined; 'aria-invalid': true | undefined; 'aria-required': true | undefined };

/** What a field's control gets: its id, kind, schema, value, label (for the kinds that hold it), ARIA and the change handler. */
interface ControlProps {
  id: string;
  kind: FieldKind;
  field: Field;
  required: boolean;
  value: RawValue | undefined;
  label: ReactNode;
  aria: FieldAria;
  onChange: (value: RawValue) => void;
}

/** The field's title with the required marker, and its key beside it unless `showName` is false. */
function FieldLabel({ title, name, required, showName }: { title: string; name: string; required: boolean; showName: boolean }) {
  const { t } = useTranslation('queue');
  return (
    <>
      {title}
      {required && (
        <span className="required" title={t('elicitation.required')} aria-hidden="true">
          {' '}
          *
        </span>
      )}
      {showName && <span className="muted mono small elicitation-field-name" aria-hidden="true"> {name}</span>}
    </>
  );
}

/** A single-select as radios (with "no answer" unless required) or a multi-select as checkboxes, in a fieldset. */
function GroupControl({ id, kind, field, required, value, label, aria, onChange }: ControlProps) {
  const { t } = useTranslation('queue');
  const options = optionsOf(field) ?? [];
  const text = typeof value === 'string' ? value : '';
  const list = Array.isArray(value) ? value : [];
  return (
    <fieldset className="elicitation-group" {...aria} aria-required={undefined}>
      <legend className="field-label">{label}</legend>
      {kind === 'radio' && !required && (
        <label className="toggle">
          <input type="radio" name={id} value="" checked={text === ''} onChange={() => onChange('')} />
          <span className="muted">{t('elicitation.noAnswerOption')}</span>
        </label>
      )}
      {options.map((o) => (
        <label key={o.value} className="toggle">
          {kind === 'radio' ? (
            <input type="radio" name={id} value={o.value} checked={text === o.value} onChange={() => onChange(o.value)} />
          ) : (
            <input
              type="checkbox"
              value={o.value}
              checked={list.includes(o.value)}
              onChange={(e) => onChange(e.target.checked ? options.map((x) => x.value).filter((v) => v === o.value || list.includes(v)) : list.filter((v) => v !== o.value))}
            />
          )}
          {o.title}
          {o.title !== o.value && <span className="muted mono small"> {o.value}</span>}
        </label>
      ))}
    </fieldset>
  );
}

/** A single-select as a <select>; its empty option reads "choose one" when required (only while unanswered), else "no answer". */
function SelectControl({ id, field, required, value, aria, onChange }: ControlProps) {
  const { t } = useTranslation('queue');
  const options = optionsOf(field) ?? [];
  const text = typeof value === 'string' ? value : '';
  return (
    <select id={id} value={text} onChange={(e) => onChange(e.target.value)} {...aria}>
      {(!required || text === '') && <option value="">{required ? t('elicitation.chooseOne') : t('elicitation.noAnswerOption')}</option>}
      {options.map((o) => (
        <option key={o.value} value={o.value}>
          {o.title}
        </option>
      ))}
    </select>
  );
}

/** The control of a field's kind: a checkbox holding the label, a group, a select, or an input of the right type (numbers with bounds). */
function FieldControl(props: ControlProps) {
  const { id, kind, field, value, label, aria, onChange } = props;
  if (kind === 'boolean') {
    return (
      <label className="toggle elicitation-check" htmlFor={id}>
        <input id={id} type="checkbox" checked={value === true} onChange={(e) => onChange(e.target.checked)} {...aria} />
        {label}
      </label>
    );
  }
  if (kind === 'radio' || kind === 'multi') return <GroupControl {...props} />;
  if (kind === 'select') return <SelectControl {...props} />;
  const text = typeof value === 'string' ? value : '';
  const bounds = field.type === 'number' || field.type === 'integer' ? { min: field.minimum, max: field.maximum, step: field.type === 'integer' ? 1 : 'any' } : {};
  return <input id={id} type={INPUT_TYPE[kind]} value={text} onChange={(e) => onChange(e.target.value)} {...bounds} {...aria} />;
}

/** One generated form field (wrapper `elicitation-field-<name>`, error `elicitation-error-<name>`). */
export function ElicitationField({ name, field, required, value, error, onChange }: ElicitationFieldProps) {
  const { t } = useTranslation('queue');
  const id = `elicit-${name}`;
  const kind = fieldKind(field);
  const helpId = `${id}-help`;
  const errorId = `${id}-error`;
  const title = field.title ?? name;
  // The field's key is shown beside its title, except in a group's legend (where it would wrap
  // across the border); there it ends the help line.
  const grouping = kind === 'radio' || kind === 'multi';
  const showName = !!field.title && field.title !== name;
  const label = <FieldLabel title={title} name={name} required={required} showName={showName && !grouping} />;
  const help = [field.description, boundsText(field), showName && grouping ? t('elicitation.key', { name }) : undefined].filter(Boolean).join(' · ');
  const describedBy = [help ? helpId : '', error ? errorId : ''].filter(Boolean).join(' ') || undefined;
  const aria: FieldAria = { 'aria-describedby': describedBy, 'aria-invalid': error ? true : undefined, 'aria-required': required || undefined };

  return (
    <div className={`field elicitation-field${error ? ' has-error' : ''}`} data-testid={`elicitation-field-${name}`} data-kind={kind}>
      {!grouping && kind !== 'boolean' && <label htmlFor={id}>{label}</label>}
      <FieldControl id={id} kind={kind} field={field} required={required} value={value} label={label} aria={aria} onChange={onChange} />
      {help && (
        <span className="field-help" id={helpId}>
          {help}
        </span>
      )}
      {error && (
        <span className="field-error small" id={errorId} role="alert" data-testid={`elicitation-error-${name}`}>
          {title} {error}
        </span>
      )}
    </div>
  );
}
