/**
 * The server editor's state: the form (loaded from the API when editing an existing entry), which
 * fields the person has touched, whether they tried to save, and the save action. Errors show on a
 * field once it was touched or a save was attempted.
 */
import { useEffect, useState, type FormEvent } from 'react';
import { getApi } from '../../api';
import { useAction, type ActionState } from '../../hooks';
import { emptyForm, entryFromForm, formFromEntry, type EditorForm, type FormField } from './editor-form';

/** What the form's fields need: the values, a setter, and the error to show under a field. */
export interface ServerFormBinding {
  form: EditorForm;
  set(field: FormField, value: string | boolean): void;
  errorOf(field: FormField): string | undefined;
}

/** The editor's state; `form` is null while an existing entry loads. */
export interface ServerEditorState {
  form: EditorForm | null;
  /** Of the existing entry: masked credential paths (`env.KEY`, `headers.Name`) and keys the form does not show. */
  info: { masked: string[]; otherKeys: string[] };
  loadError: string | null;
  set: ServerFormBinding['set'];
  errorOf: ServerFormBinding['errorOf'];
  save: ActionState<[]>;
  /** The form's submit handler: marks a save as attempted and saves when the form is valid. */
  submit(e: FormEvent<HTMLFormElement>): void;
}

/** Loads the entry named `editing` (or starts an empty form) and saves it through the API; `onDone` gets the saved name. */
export function useServerEditor(editing: string | undefined, onDone: (savedName?: string) => void): ServerEditorState {
  const [form, setForm] = useState<EditorForm | null>(editing ? null : emptyForm());
  const [info, setInfo] = useState<{ masked: string[]; otherKeys: string[] }>({ masked: [], otherKeys: [] });
  const [loadError, setLoadError] = useState<string | null>(null);
  const [touched, setTouched] = useState<Partial<Record<FormField, boolean>>>({});
  const [attempted, setAttempted] = useState(false);

  useEffect(() => {
    if (!editing) return;
    let live = true;
    getApi()
      .getServerEntry({ serverId: editing })
      .then(
        (res) => {
          if (!live) return;
          setForm(formFromEntry(editing, res.entry));
          setInfo({ masked: res.masked, otherKeys: res.otherKeys });
        },
        (err: unknown) => live && setLoadError(err instanceof Error ? err.message : String(err)),
      );
    return () => {
      live = false;
    };
  }, [editing]);

  const built = form ? entryFromForm(form) : null;
  const save = useAction(async () => {
    if (!built?.ok) return;
    await getApi().saveServer({ id: built.name, previousId: editing, entry: built.entry });
    onDone(built.name);
  });

  const set = (field: FormField, value: string | boolean) => {
    setForm((prev) => prev && { ...prev, [field]: value });
    setTouched((prev) => ({ ...prev, [field]: true }));
  };
  const errorOf = (field: FormField) => (built && !built.ok && (attempted || touched[field]) ? built.errors[field] : undefined);
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    setAttempted(true);
    if (built?.ok) void save.run();
  };
  return { form, info, loadError, set, errorOf, save, submit };
}
