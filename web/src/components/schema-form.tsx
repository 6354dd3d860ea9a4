import { useState, type FormEvent, type ReactNode } from 'react';
import { usePreferences } from '../i18n/preferences.js';
import { Field } from './ui.js';

/** The part of a JSON Schema object the forms draw: flat properties of simple types. */
export interface FormSchema {
  readonly properties?: Readonly<Record<string, { readonly type?: string; readonly description?: string; readonly enum?: readonly (string | number)[]; readonly examples?: readonly unknown[]; readonly items?: { readonly type?: string } }>>;
  readonly required?: readonly string[];
}

function valueOf(type: string | undefined, itemType: string | undefined, text: string): unknown {
  if (type === 'number' || type === 'integer') return text.trim() === '' ? undefined : Number(text);
  if (type === 'array') {
    const items = text.split(',').map((item) => item.trim()).filter((item) => item !== '');
    return itemType === 'number' || itemType === 'integer' ? items.map(Number) : items;
  }
  return text === '' ? undefined : text;
}

/**
 * A form generated from a variables schema: one labelled control per property (text, number, a choice
 * for an enum, a checkbox for a boolean, comma-separated values for an array); submits typed values.
 */
export function SchemaForm({ schema, submitLabel, busy, onSubmit, children }: { schema: FormSchema; submitLabel: string; busy: boolean; onSubmit: (values: Record<string, unknown>) => void; children?: ReactNode }) {
  const { t } = usePreferences();
  const properties = Object.entries(schema.properties ?? {});
  const [texts, setTexts] = useState<Record<string, string>>({});
  const [checks, setChecks] = useState<Record<string, boolean>>({});
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const values: Record<string, unknown> = {};
    for (const [name, property] of properties) {
      const value = property.type === 'boolean' ? (checks[name] ?? false) : valueOf(property.type, property.items?.type, texts[name] ?? '');
      if (value !== undefined) values[name] = value;
    }
    onSubmit(values);
  };
  return (
    <form onSubmit={submit} data-testid="schema-form">
      {properties.map(([name, property]) => {
        const required = schema.required?.includes(name) === true;
        const example = property.examples?.[0];
        const label = `${name}${required ? ' *' : ''}`;
        if (property.type === 'boolean') {
          return (
            <div key={name} className="mb-3 flex items-center gap-2">
              <input id={`field-${name}`} type="checkbox" className="size-4" checked={checks[name] ?? false} onChange={(event) => setChecks({ ...checks, [name]: event.target.checked })} />
              <label htmlFor={`field-${name}`} className="text-sm">
                {label} <span className="muted">{property.description}</span>
              </label>
            </div>
          );
        }
        return (
          <Field key={name} label={label} {...(property.description === undefined ? {} : { hint: property.description })}>
            {(id) =>
              property.enum !== undefined ? (
                <select id={id} name={name} className="input" value={texts[name] ?? ''} onChange={(event) => setTexts({ ...texts, [name]: event.target.value })} required={required}>
                  <option value="">—</option>
                  {property.enum.map((choice) => (
                    <option key={String(choice)} value={String(choice)}>
                      {String(choice)}
                    </option>
                  ))}
                </select>
              ) : (
                <input
                  id={id}
                  name={name}
                  className="input"
                  dir="auto"
                  type={property.type === 'number' || property.type === 'integer' ? 'number' : 'text'}
                  value={texts[name] ?? ''}
                  onChange={(event) => setTexts({ ...texts, [name]: event.target.value })}
                  required={required}
                  placeholder={example === undefined ? undefined : Array.isArray(example) ? example.join(', ') : String(example)}
                />
              )
            }
          </Field>
        );
      })}
      {children}
      <button type="submit" className="btn btn-primary" disabled={busy}>
        {busy ? t('common.loading') : submitLabel}
      </button>
    </form>
  );
}
