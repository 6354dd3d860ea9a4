import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api } from '../api/client.js';
import type { PolicyTest } from '../api/types.js';
import { Badge, Empty, ErrorNote, Field, Json, Loading, Ltr, PageTitle, Section, type Tone } from '../components/ui.js';
import { usePreferences } from '../i18n/preferences.js';

const DECISION_TONES: Record<string, Tone> = { allow: 'green', require_approval: 'amber', block: 'red' };

/** Answers "what would happen to this call, and why" without making it. */
function PolicyTester() {
  const { t } = usePreferences();
  const [tool, setTool] = useState('');
  const [input, setInput] = useState('{}');
  const [answer, setAnswer] = useState<PolicyTest | undefined>();
  const [error, setError] = useState<unknown>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    try {
      setAnswer(await api.testPolicy({ tool: tool.trim(), input: JSON.parse(input) as unknown }));
    } catch (caught) {
      setError(caught);
    }
  };
  return (
    <Section title={t('policy.test')}>
      <form onSubmit={(event) => void submit(event)} className="grid gap-x-4 sm:grid-cols-2">
        <Field label={t('policy.tool')}>{(id) => <input id={id} className="input" dir="ltr" value={tool} onChange={(event) => setTool(event.target.value)} required />}</Field>
        <Field label={t('policy.input')}>{(id) => <input id={id} className="input font-mono" dir="ltr" value={input} onChange={(event) => setInput(event.target.value)} />}</Field>
        <div>
          <button type="submit" className="btn btn-primary">
            {t('policy.test')}
          </button>
        </div>
      </form>
      <ErrorNote error={error} />
      {answer === undefined ? null : (
        <div className="mt-2 text-sm" role="status">
          <p className="flex flex-wrap items-center gap-2">
            <Badge tone={DECISION_TONES[answer.decision] ?? 'gray'}>{t('policy.decision', { decision: answer.decision })}</Badge>
            {answer.reason} · <Ltr>{answer.rule}</Ltr>
          </p>
          <Json value={answer.trace.join('\n')} />
        </div>
      )}
    </Section>
  );
}

export default function PolicyPage() {
  const { t } = usePreferences();
  const policy = useQuery({ queryKey: ['policy'], queryFn: api.policy });
  return (
    <div>
      <PageTitle>{t('policy.title')}</PageTitle>
      {policy.isPending ? <Loading /> : null}
      <ErrorNote error={policy.error} />
      {policy.data === undefined ? null : (
        <>
          <Section title={t('policy.defaults')} actions={policy.data.version === null ? null : <Ltr className="muted text-xs">{t('policy.version', { n: policy.data.version })}</Ltr>}>
            <ul className="flex flex-wrap gap-2">
              {Object.entries(policy.data.built_in_defaults).map(([risk, decision]) => (
                <li key={risk}>
                  <Badge tone={DECISION_TONES[policy.data.document.defaults[risk as keyof typeof policy.data.document.defaults] ?? decision] ?? 'gray'}>
                    {risk}: {policy.data.document.defaults[risk as keyof typeof policy.data.document.defaults] ?? decision}
                  </Badge>
                </li>
              ))}
            </ul>
            {policy.data.configuration_requires_approval.length === 0 ? null : (
              <p className="mt-2 text-sm">
                {t('policy.requireApproval')}: <Ltr className="font-mono">{policy.data.configuration_requires_approval.join(', ')}</Ltr>
              </p>
            )}
          </Section>
          <Section title={t('policy.rules')}>
            {policy.data.document.rules.length === 0 ? <Empty>{t('common.none')}</Empty> : null}
            <ol className="flex flex-col gap-2">
              {policy.data.document.rules.map((rule, index) => (
                <li key={index} className="flex flex-wrap items-center gap-2 text-sm">
                  <Ltr className="font-mono">{typeof rule.tool === 'string' ? rule.tool : JSON.stringify(rule.tool)}</Ltr>
                  <Badge tone={DECISION_TONES[rule.decision] ?? 'gray'}>{rule.decision}</Badge>
                  {rule.reason === undefined ? null : <span className="muted">{rule.reason}</span>}
                  {rule.when === undefined ? null : <Ltr className="muted font-mono text-xs">{JSON.stringify(rule.when)}</Ltr>}
                </li>
              ))}
            </ol>
          </Section>
        </>
      )}
      <PolicyTester />
    </div>
  );
}
