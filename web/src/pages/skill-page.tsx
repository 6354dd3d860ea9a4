import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useMemo, useState } from 'react';
import { api } from '../api/client.js';
import { useRunStream } from '../api/run-stream.js';
import { runViewOf } from '../api/run-view.js';
import type { EventOf, SkillReplay, SkillTest } from '../api/types.js';
import { AbstractionPreview } from '../components/save-skill.js';
import { SchemaForm, type FormSchema } from '../components/schema-form.js';
import { Badge, costText, ErrorNote, Field, formatNumber, formatTime, Json, Loading, Ltr, PageTitle, Section, StatusBadge, type Tone } from '../components/ui.js';
import { usePreferences } from '../i18n/preferences.js';
import { Link } from '../router.js';

type Resolution = EventOf<'skill-step'>['resolutions'][number];

const STRATEGY_TONES: Record<Resolution['strategy'], Tone> = { user_input: 'blue', heuristic: 'green', llm_rescue: 'violet', text_passthrough: 'gray', default: 'amber', constant: 'gray' };

function shown(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** One resolved value: its strategy as a chip; its reasons, candidates and scores on hover or keyboard focus. */
function ResolutionChip({ resolution }: { resolution: Resolution }) {
  const { t } = usePreferences();
  const tooltip = useId();
  return (
    <span className="group relative inline-block" data-testid="resolution-chip" data-strategy={resolution.strategy}>
      <button type="button" className="rounded-full" aria-describedby={tooltip}>
        <Badge tone={STRATEGY_TONES[resolution.strategy]}>
          <Ltr className="font-mono">{resolution.name}</Ltr> · {resolution.strategy}
        </Badge>
      </button>
      <span
        id={tooltip}
        role="tooltip"
        className="invisible absolute start-0 top-full z-20 mt-1 w-72 max-w-[80vw] rounded-md border border-stone-300 bg-white p-2 text-xs text-stone-900 shadow-lg group-focus-within:visible group-hover:visible dark:border-stone-600 dark:bg-stone-800 dark:text-stone-100"
      >
        <span className="block">
          <Ltr className="font-mono">{`${resolution.name} = ${shown(resolution.value)}`}</Ltr>
        </span>
        {resolution.because === undefined ? null : <span className="block">{t('skill.because', { because: resolution.because })}</span>}
        {resolution.scores === undefined || resolution.scores.length === 0 ? null : (
          <span className="mt-1 block">
            <span className="block font-semibold">{t('skill.candidates')}</span>
            {resolution.scores.map((candidate, index) => (
              <span key={index} className="block">
                <Ltr className="font-mono">{`${shown(candidate.value)} — ${candidate.score === null ? 'n/a' : candidate.score.toFixed(2)}`}</Ltr>
              </span>
            ))}
          </span>
        )}
        {(resolution.rejections ?? []).map((rejection, index) => (
          <span key={index} className="block">
            {rejection.strategy}: {rejection.reason}
          </span>
        ))}
      </span>
    </span>
  );
}

/** What a replay cost, next to what the recorded run it came from cost. */
function CostBanner({ replay, recordingRunId }: { replay: SkillReplay; recordingRunId: string | undefined }) {
  const { t } = usePreferences();
  const replayRun = useQuery({ queryKey: ['run', replay.run_id, 'banner'], queryFn: () => api.run(replay.run_id) });
  const recording = useQuery({ queryKey: ['run', recordingRunId, 'banner'], queryFn: () => api.run(recordingRunId!), enabled: recordingRunId !== undefined });
  const tokens = (run: { tokens: { input: number; output: number } } | undefined) => (run === undefined ? '—' : formatNumber(run.tokens.input + run.tokens.output));
  return (
    <div className="mb-3 rounded-md border border-sky-400 bg-sky-50 p-3 text-sm text-sky-950 dark:border-sky-700 dark:bg-sky-950 dark:text-sky-50" role="status" data-testid="cost-banner">
      {t('skill.costBanner', {
        calls: formatNumber(replay.llm_calls),
        tokens: tokens(replayRun.data),
        dollars: costText(t, { costUsd: replay.cost_usd }),
        rcalls: recording.data === undefined ? '—' : formatNumber(recording.data.llm_calls),
        rtokens: tokens(recording.data),
        rdollars: recording.data === undefined ? '—' : costText(t, { costUsd: recording.data.cost_usd, pricedCostUsd: recording.data.cost_usd_known, unpricedCalls: recording.data.unpriced_calls }),
      })}
    </div>
  );
}

function ReplayResult({ replay, recordingRunId }: { replay: SkillReplay; recordingRunId: string | undefined }) {
  const { t } = usePreferences();
  const stream = useRunStream(replay.run_id);
  const view = useMemo(() => runViewOf(stream.events), [stream.events]);
  return (
    <Section title={t('skill.result')}>
      <CostBanner replay={replay} recordingRunId={recordingRunId} />
      <p className="mb-2 flex flex-wrap items-center gap-2">
        <StatusBadge status={replay.status} />
        <Badge tone="gray">{replay.mode}</Badge>
        <Link to={`/runs/${encodeURIComponent(replay.run_id)}`} className="text-sm text-orange-800 underline dark:text-orange-300">
          <Ltr>{replay.run_id}</Ltr>
        </Link>
      </p>
      {replay.answer === null ? null : <Json value={replay.answer} label={t('run.answer')} />}
      <ErrorNote error={replay.error === null ? null : new Error(`${replay.error.message}${replay.error.hint === undefined ? '' : ` ${replay.error.hint}`}`)} />
      <h3 className="mb-1 mt-3 font-semibold">{t('skill.resolved')}</h3>
      <ol className="flex flex-col gap-2">
        {view.skillSteps.map((step) => (
          <li key={step.seq} className="rounded-md border border-stone-200 p-2 dark:border-stone-700">
            <p className="mb-1 text-sm font-medium">{t('skill.step', { n: step.step + 1, tool: step.tool })}</p>
            <div className="flex flex-wrap gap-2">
              {step.resolutions.map((resolution) => (
                <ResolutionChip key={resolution.name} resolution={resolution} />
              ))}
            </div>
          </li>
        ))}
      </ol>
    </Section>
  );
}

export default function SkillPage({ params }: { params: Record<string, string> }) {
  const { t, language } = usePreferences();
  const name = params['skill']!;
  const queries = useQueryClient();
  const detail = useQuery({ queryKey: ['skill', name], queryFn: () => api.skill(name) });
  const versions = useQuery({ queryKey: ['skill', name, 'versions'], queryFn: () => api.skillVersions(name) });
  const [mode, setMode] = useState<'auto' | 'deterministic' | 'guided'>('auto');
  const [dryRun, setDryRun] = useState(false);
  const [replay, setReplay] = useState<SkillReplay | undefined>();
  const [test, setTest] = useState<SkillTest | undefined>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  if (detail.isPending) return <Loading />;
  if (detail.error !== null) return <ErrorNote error={detail.error} />;
  const { skill, document } = detail.data;
  const schema = (document['variables_schema'] ?? {}) as FormSchema;
  const recordingRunId = (document['provenance'] as { run_id?: string } | undefined)?.run_id;
  const run = async (inputs: Record<string, unknown>) => {
    setBusy(true);
    setError(null);
    setReplay(undefined);
    try {
      setReplay(await api.replaySkill(skill.skill, { inputs, mode, ...(dryRun ? { dry_run: true } : {}) }));
      await queries.invalidateQueries({ queryKey: ['skill', name] });
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };
  const runTest = async () => {
    setError(null);
    try {
      setTest(await api.testSkill(skill.skill));
      // The test's verdict is the skill's health now: the badge reads it again.
      await queries.invalidateQueries({ queryKey: ['skill', name] });
    } catch (caught) {
      setError(caught);
    }
  };
  return (
    <div>
      <PageTitle>
        <Ltr className="font-mono">{skill.skill}</Ltr>
      </PageTitle>
      <p className="mb-4" dir="auto">{skill.description}</p>
      <Section title={t('skill.health')} actions={<button type="button" className="btn" onClick={() => void runTest()}>{t('skill.test')}</button>}>
        <p className="flex flex-wrap items-center gap-2">
          <StatusBadge status={skill.status} />
          <span>{skill.status === 'stale' ? t('skill.stale') : t('skill.active')}</span>
          <Ltr className="muted text-xs">{t('skills.version', { n: skill.version })}</Ltr>
        </p>
        {test === undefined ? null : (
          <p className="mt-2 text-sm" role="status" data-testid="skill-test">
            {test.passed ? t('skill.testPassed') : t('skill.testFailed', { problems: test.problems.join('; ') })}
          </p>
        )}
      </Section>
      <Section title={t('skill.replay')}>
        <SchemaForm schema={schema} submitLabel={t('skill.run')} busy={busy} onSubmit={(inputs) => void run(inputs)}>
          <Field label={t('skill.mode')}>
            {(id) => (
              <select id={id} className="input" value={mode} onChange={(event) => setMode(event.target.value as typeof mode)}>
                <option value="auto">{t('skill.mode.auto')}</option>
                <option value="deterministic">{t('skill.mode.deterministic')}</option>
                <option value="guided">{t('skill.mode.guided')}</option>
              </select>
            )}
          </Field>
          <div className="mb-3 flex items-center gap-2">
            <input id="replay-dry-run" type="checkbox" className="size-4" checked={dryRun} onChange={(event) => setDryRun(event.target.checked)} />
            <label htmlFor="replay-dry-run" className="text-sm">
              {t('skill.dryRun')}
            </label>
          </div>
        </SchemaForm>
        <ErrorNote error={error} />
      </Section>
      {replay === undefined ? null : <ReplayResult replay={replay} recordingRunId={recordingRunId} />}
      <Section title={t('skill.preview')}>
        <AbstractionPreview skill={name} />
      </Section>
      <Section title={t('skill.versions')}>
        {versions.isPending ? <Loading /> : null}
        <ErrorNote error={versions.error} />
        <ol className="flex flex-col gap-1 text-sm">
          {(versions.data?.versions ?? []).map((version) => (
            <li key={version.version}>
              <Ltr className="font-semibold">{t('skills.version', { n: version.version })}</Ltr> · {version.note} · {formatTime(version.created_at, language)}
            </li>
          ))}
        </ol>
      </Section>
    </div>
  );
}
