import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api } from '../api/client.js';
import type { SavedSkill } from '../api/types.js';
import { usePreferences } from '../i18n/preferences.js';
import { Link } from '../router.js';
import { Badge, ErrorNote, Field, ForwardIcon, Json, Loading, Ltr, Section } from './ui.js';

interface Binding {
  readonly kind: string;
  readonly name?: string;
  readonly step?: number;
  readonly path?: string;
  readonly value?: unknown;
  readonly pinned?: boolean;
  readonly selection?: string;
  readonly field?: string;
  readonly template?: string;
}

interface SkillStep {
  readonly tool: string;
  readonly side_effect: string;
  readonly arguments: readonly { readonly path: string; readonly binding: Binding }[];
}

/** Where one argument's value comes from in a replay, in words: a variable, an earlier step's result, a constant… */
function BindingText({ binding }: { binding: Binding }) {
  const { t } = usePreferences();
  switch (binding.kind) {
    case 'input':
      return <Badge tone="blue">{t('skill.binding.input', { name: binding.name ?? '' })}</Badge>;
    case 'result':
      return <Badge tone="green">{t('skill.binding.result', { step: (binding.step ?? 0) + 1, path: binding.path ?? '' })}</Badge>;
    case 'constant':
      return <Badge tone={binding.pinned === true ? 'violet' : 'gray'}>{t(binding.pinned === true ? 'skill.binding.pinned' : 'skill.binding.constant', { value: JSON.stringify(binding.value) })}</Badge>;
    case 'selected':
    case 'selected-list':
      return <Badge tone="amber">{t('skill.binding.selected', { selection: binding.selection ?? '', field: binding.field ?? '' })}</Badge>;
    case 'template':
      return <Badge tone="gray">{t('skill.binding.template', { template: binding.template ?? '' })}</Badge>;
    default:
      return <Badge tone="gray">{t('skill.binding.other', { kind: binding.kind })}</Badge>;
  }
}

/** The abstraction of a saved skill: its template, its variables, and per step where each argument comes from. */
export function AbstractionPreview({ skill, saved }: { skill: string; saved?: SavedSkill }) {
  const { t } = usePreferences();
  const detail = useQuery({ queryKey: ['skill', skill], queryFn: () => api.skill(skill) });
  if (detail.isPending) return <Loading />;
  if (detail.error !== null) return <ErrorNote error={detail.error} />;
  const document = detail.data.document as { task_template?: string; variables_schema?: { properties?: Record<string, { description?: string; examples?: unknown[] }> }; steps?: SkillStep[] };
  const variables = Object.entries(document.variables_schema?.properties ?? {});
  return (
    <div data-testid="abstraction-preview">
      <h3 className="mb-1 font-semibold">{t('skill.template')}</h3>
      <Json value={document.task_template ?? ''} />
      <h3 className="mb-1 mt-3 font-semibold">{t('skill.variables')}</h3>
      <ul className="flex flex-col gap-1">
        {variables.map(([name, schema]) => (
          <li key={name} className="text-sm" data-testid="skill-variable">
            <code className="font-mono font-semibold">{`{{${name}}}`}</code> <span className="muted">{schema.description}</span>
          </li>
        ))}
      </ul>
      <h3 className="mb-1 mt-3 font-semibold">{t('skill.bindings')}</h3>
      <ol className="flex flex-col gap-2">
        {(document.steps ?? []).map((step, index) => (
          <li key={index} className="rounded-md border border-stone-200 p-2 dark:border-stone-700">
            <p className="text-sm font-medium">
              {t('skill.step', { n: index + 1, tool: step.tool })} <Badge tone={step.side_effect === 'write' ? 'red' : 'gray'}>{step.side_effect}</Badge>
            </p>
            <ul className="mt-1 flex flex-col gap-1">
              {step.arguments.map((argument) => (
                <li key={argument.path} className="flex flex-wrap items-center gap-2 text-sm">
                  <Ltr className="font-mono">{argument.path}</Ltr>
                  <BindingText binding={argument.binding} />
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ol>
      {saved === undefined || saved.write_constants.length === 0 ? null : (
        <div className="mt-3 rounded-md border border-amber-400 p-2 text-sm">
          <p className="font-medium">{t('skill.writeConstants')}</p>
          <ul>
            {saved.write_constants.map((constant) => (
              <li key={constant.name}>
                <Ltr className="font-mono">{`${constant.name} = ${JSON.stringify(constant.value)}`}</Ltr>
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}

function suggestedName(task: string): string {
  return task
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .split('-')
    .slice(0, 4)
    .join('-');
}

/** Save-as-Skill: name a successful run's skill, save it, and see what became a variable and what is bound. */
export function SaveSkill({ runId, task }: { runId: string; task: string }) {
  const { t } = usePreferences();
  const queries = useQueryClient();
  const [name, setName] = useState(() => suggestedName(task));
  const [description, setDescription] = useState('');
  const [saved, setSaved] = useState<SavedSkill | undefined>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const result = await api.saveSkill({ run_id: runId, ...(name.trim() === '' ? {} : { name: name.trim() }), ...(description.trim() === '' ? {} : { description: description.trim() }) });
      setSaved(result);
      await queries.invalidateQueries({ queryKey: ['skills'] });
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Section title={t('skill.save.title')}>
      {saved === undefined ? (
        <form onSubmit={(event) => void submit(event)}>
          <Field label={t('skill.save.name')}>{(id) => <input id={id} className="input" dir="ltr" value={name} onChange={(event) => setName(event.target.value)} pattern="[a-z0-9]+(-[a-z0-9]+)*" />}</Field>
          <Field label={t('common.description')}>{(id) => <input id={id} className="input" value={description} onChange={(event) => setDescription(event.target.value)} />}</Field>
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {t('skill.save.submit')}
          </button>
          <ErrorNote error={error} />
        </form>
      ) : (
        <div>
          <p className="mb-2 flex flex-wrap items-center gap-2">
            <Badge tone="green">{saved.skill.skill}</Badge>
            <Ltr>{t('skills.version', { n: saved.skill.version })}</Ltr>
            <Link to={`/skills/${encodeURIComponent(saved.skill.skill)}`} className="inline-flex items-center gap-1 text-orange-800 underline dark:text-orange-300" data-testid="open-skill">
              {t('skill.replay')}
              <ForwardIcon />
            </Link>
          </p>
          <AbstractionPreview skill={saved.skill.skill} saved={saved} />
        </div>
      )}
    </Section>
  );
}
