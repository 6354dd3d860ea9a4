import { useId, type ReactNode } from 'react';
import { ApiError } from '../api/client.js';
import { usePreferences } from '../i18n/preferences.js';
import { en, type MessageKey } from '../i18n/messages.js';

/** A number, a code or an id: always left to right, whatever the page's direction. */
export function Ltr({ children, className = '' }: { children: ReactNode; className?: string }) {
  return (
    <bdi dir="ltr" className={`num ${className}`}>
      {children}
    </bdi>
  );
}

export function formatDollars(value: number): string {
  if (value === 0) return '$0';
  return value < 0.01 ? `$${value.toFixed(6).replace(/0+$/, '')}` : `$${value.toFixed(4).replace(/0+$/, '').replace(/\.$/, '')}`;
}

/** What `usePreferences().t` is. */
type Translate = (key: MessageKey, values?: Readonly<Record<string, string | number>>) => string;

/** The known part of an unknown cost: `$0.0042 known · 2 unpriced calls`. */
function knownPartText(t: Translate, pricedCostUsd: number, unpricedCalls: number): string {
  return t('cost.knownPart', { dollars: formatDollars(pricedCostUsd), n: formatNumber(unpricedCalls) });
}

/** A cost that may be unknown, as words: `$0.0042`, or `unknown`, with its known part when it is given (never $0 for unknown). */
export function costText(t: Translate, cost: { readonly costUsd: number | null; readonly pricedCostUsd?: number; readonly unpricedCalls?: number }): string {
  if (cost.costUsd !== null) return formatDollars(cost.costUsd);
  if (cost.pricedCostUsd === undefined || cost.unpricedCalls === undefined) return t('cost.unknownValue');
  return `${t('cost.unknownValue')} (${knownPartText(t, cost.pricedCostUsd, cost.unpricedCalls)})`;
}

/** A cost that may be unknown: see `costText`. */
export function Cost({ costUsd, pricedCostUsd, unpricedCalls }: { costUsd: number | null; pricedCostUsd?: number; unpricedCalls?: number }) {
  const { t } = usePreferences();
  const text = costText(t, { costUsd, ...(pricedCostUsd === undefined ? {} : { pricedCostUsd }), ...(unpricedCalls === undefined ? {} : { unpricedCalls }) });
  return costUsd === null ? <span data-cost="unknown">{text}</span> : <Ltr>{text}</Ltr>;
}

export function formatNumber(value: number): string {
  return new Intl.NumberFormat('en-US').format(value);
}

const TONES = {
  green: 'bg-green-100 text-green-900 ring-green-700/30 dark:bg-green-950 dark:text-green-200 dark:ring-green-400/40',
  red: 'bg-red-100 text-red-900 ring-red-700/30 dark:bg-red-950 dark:text-red-200 dark:ring-red-400/40',
  amber: 'bg-amber-100 text-amber-900 ring-amber-700/30 dark:bg-amber-950 dark:text-amber-200 dark:ring-amber-400/40',
  blue: 'bg-sky-100 text-sky-900 ring-sky-700/30 dark:bg-sky-950 dark:text-sky-200 dark:ring-sky-400/40',
  gray: 'bg-stone-100 text-stone-800 ring-stone-600/30 dark:bg-stone-800 dark:text-stone-200 dark:ring-stone-400/40',
  violet: 'bg-violet-100 text-violet-900 ring-violet-700/30 dark:bg-violet-950 dark:text-violet-200 dark:ring-violet-400/40',
} as const;
export type Tone = keyof typeof TONES;

const STATUS_TONES: Record<string, Tone> = {
  completed: 'green',
  done: 'green',
  promoted: 'green',
  active: 'green',
  connected: 'green',
  allow: 'green',
  approved: 'green',
  running: 'blue',
  testing: 'blue',
  connecting: 'blue',
  waiting: 'amber',
  awaiting_approval: 'amber',
  require_approval: 'amber',
  draft: 'gray',
  stale: 'amber',
  failed: 'red',
  denied: 'red',
  blocked: 'red',
  block: 'red',
  refused: 'violet',
  cancelled: 'gray',
  expired: 'gray',
};

export function Badge({ tone = 'gray', children }: { tone?: Tone; children: ReactNode }) {
  return <span className={`inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${TONES[tone]}`}>{children}</span>;
}

/** A status word in its colour (green done, amber waiting, red failed…), translated when the UI knows it. */
export function StatusBadge({ status }: { status: string }) {
  const { t } = usePreferences();
  const key = `status.${status}`;
  const label = key in en ? t(key as MessageKey) : status.replace(/_/g, ' ');
  return (
    <span data-status={status}>
      <Badge tone={STATUS_TONES[status] ?? 'gray'}>{label}</Badge>
    </span>
  );
}

/** Model calls, tokens and dollars of a run or a message. */
export function CostFigures({ llmCalls, input, output, costUsd, pricedCostUsd, unpricedCalls }: { llmCalls: number; input: number; output: number; costUsd: number | null; pricedCostUsd: number; unpricedCalls: number }) {
  const { t } = usePreferences();
  return (
    <span className="muted inline-flex flex-wrap items-center gap-x-3 gap-y-1 text-xs" data-testid="cost">
      <span>{t('cost.calls', { n: formatNumber(llmCalls) })}</span>
      <span>{t('cost.tokens', { input: formatNumber(input), output: formatNumber(output) })}</span>
      {costUsd === null ? (
        <span data-cost="unknown">
          {t('cost.unknown')} ({knownPartText(t, pricedCostUsd, unpricedCalls)})
        </span>
      ) : (
        <Ltr>{formatDollars(costUsd)}</Ltr>
      )}
    </span>
  );
}

export function PageTitle({ children, actions }: { children: ReactNode; actions?: ReactNode }) {
  return (
    <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
      <h1 className="text-2xl font-semibold tracking-tight">{children}</h1>
      {actions}
    </div>
  );
}

export function Section({ title, children, actions }: { title: ReactNode; children: ReactNode; actions?: ReactNode }) {
  const id = useId();
  return (
    <section className="card mb-4" aria-labelledby={id}>
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <h2 id={id} className="text-lg font-semibold">
          {title}
        </h2>
        {actions}
      </div>
      {children}
    </section>
  );
}

export function Loading() {
  const { t } = usePreferences();
  return (
    <p className="muted" role="status">
      {t('common.loading')}
    </p>
  );
}

export function ErrorNote({ error }: { error: unknown }) {
  const { t } = usePreferences();
  if (error === null || error === undefined) return null;
  const message = error instanceof Error ? error.message : String(error);
  const hint = error instanceof ApiError ? error.hint : undefined;
  return (
    <div role="alert" className="my-2 rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100">
      <p className="font-semibold">{t('common.error')}</p>
      <p>{message}</p>
      {hint === undefined ? null : <p className="mt-1 opacity-90">{hint}</p>}
    </div>
  );
}

/** An approval that stood while its run could not go on: what went wrong, and that the run can be resumed. */
export function ResumeFailedNote({ error }: { error: { message: string; hint?: string | undefined } | null }) {
  const { t } = usePreferences();
  if (error === null) return null;
  return (
    <div role="alert" className="my-2 rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100" data-testid="resume-failed">
      <p className="font-semibold">{t('approval.resumeFailed')}</p>
      <p dir="auto">{error.message}</p>
      {error.hint === undefined ? null : <p className="mt-1 opacity-90" dir="auto">{error.hint}</p>}
    </div>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <p className="muted py-2">{children}</p>;
}

/** A labelled form control: the label names the control for assistive technology. */
export function Field({ label, children, hint }: { label: string; hint?: string; children: (id: string) => ReactNode }) {
  const id = useId();
  return (
    <div className="mb-3">
      <label className="label" htmlFor={id}>
        {label}
      </label>
      {children(id)}
      {hint === undefined ? null : <p className="muted mt-1 text-xs">{hint}</p>}
    </div>
  );
}

export function Json({ value, label }: { value: unknown; label?: string }) {
  const text = typeof value === 'string' ? value : JSON.stringify(value, null, 2);
  return (
    <pre className="pre" dir="ltr" tabIndex={0} aria-label={label}>
      {text}
    </pre>
  );
}

/** An arrow that points "forward" in the reading direction (mirrored right to left). */
export function ForwardIcon() {
  return (
    <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4 rtl:-scale-x-100" fill="currentColor">
      <path d="M7.3 4.3a1 1 0 0 1 1.4 0l5 5a1 1 0 0 1 0 1.4l-5 5a1 1 0 1 1-1.4-1.4L11.6 10 7.3 5.7a1 1 0 0 1 0-1.4Z" />
    </svg>
  );
}

export function BackIcon() {
  return (
    <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4 rtl:-scale-x-100" fill="currentColor">
      <path d="M12.7 15.7a1 1 0 0 1-1.4 0l-5-5a1 1 0 0 1 0-1.4l5-5a1 1 0 1 1 1.4 1.4L8.4 10l4.3 4.3a1 1 0 0 1 0 1.4Z" />
    </svg>
  );
}

export function formatTime(iso: string | null, language: string): string {
  if (iso === null) return '—';
  return new Intl.DateTimeFormat(language === 'ar' ? 'ar-u-nu-latn' : 'en', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
}

/** A table that may scroll sideways on a narrow screen: a labelled region the keyboard can scroll too. */
export function ScrollingTable({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="overflow-x-auto" role="region" aria-label={label} tabIndex={0}>
      <table className="w-full text-sm">{children}</table>
    </div>
  );
}
