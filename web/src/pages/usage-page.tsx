import { useQuery } from '@tanstack/react-query';
import { api } from '../api/client.js';
import { Empty, ErrorNote, formatDollars, formatNumber, Loading, Ltr, PageTitle, ScrollingTable, Section } from '../components/ui.js';
import { usePreferences } from '../i18n/preferences.js';

/** The caller's model calls, tokens and dollars, summed by kind of run and model. */
export default function UsagePage() {
  const { t } = usePreferences();
  const usage = useQuery({ queryKey: ['usage'], queryFn: api.usage });
  const rows = usage.data?.by_kind_and_model ?? [];
  const total = rows.reduce((sum, row) => sum + row.cost_usd, 0);
  return (
    <div>
      <PageTitle>{t('usage.title')}</PageTitle>
      {usage.isPending ? <Loading /> : null}
      <ErrorNote error={usage.error} />
      {usage.data === undefined ? null : (
        <Section title={t('usage.runs', { n: formatNumber(usage.data.runs) })} actions={<Ltr className="text-lg font-semibold">{formatDollars(total)}</Ltr>}>
          {rows.length === 0 ? <Empty>{t('common.none')}</Empty> : null}
          <ScrollingTable label={t('usage.title')}>
            <thead>
              <tr>
                <th scope="col" className="p-1 text-start">{t('runs.kind')}</th>
                <th scope="col" className="p-1 text-start">{t('runs.model')}</th>
                <th scope="col" className="p-1 text-start">{t('runs.title')}</th>
                <th scope="col" className="p-1 text-start">{t('run.modelCalls')}</th>
                <th scope="col" className="p-1 text-start">{t('run.tokens')}</th>
                <th scope="col" className="p-1 text-start">{t('run.dollars')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={`${row.kind}/${row.model}`} className="border-t border-stone-200 dark:border-stone-700">
                  <td className="p-1">{row.kind}</td>
                  <td className="p-1"><Ltr>{row.model}</Ltr></td>
                  <td className="p-1"><Ltr>{formatNumber(row.runs)}</Ltr></td>
                  <td className="p-1"><Ltr>{formatNumber(row.llm_calls)}</Ltr></td>
                  <td className="p-1"><Ltr>{`${formatNumber(row.tokens.input)} / ${formatNumber(row.tokens.output)}`}</Ltr></td>
                  <td className="p-1"><Ltr>{formatDollars(row.cost_usd)}</Ltr></td>
                </tr>
              ))}
            </tbody>
          </ScrollingTable>
        </Section>
      )}
    </div>
  );
}
