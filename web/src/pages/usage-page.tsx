import { useQuery } from '@tanstack/react-query';
import { api } from '../api/client.js';
import { Cost, Empty, ErrorNote, formatNumber, Loading, Ltr, PageTitle, ScrollingTable, Section } from '../components/ui.js';
import { usePreferences } from '../i18n/preferences.js';

/** The caller's model calls, tokens and dollars, summed by kind of run and model; a cost with an unpriced call in it reads unknown, with its known part. */
export default function UsagePage() {
  const { t } = usePreferences();
  const usage = useQuery({ queryKey: ['usage'], queryFn: api.usage });
  const rows = usage.data?.by_kind_and_model ?? [];
  return (
    <div>
      <PageTitle>{t('usage.title')}</PageTitle>
      {usage.isPending ? <Loading /> : null}
      <ErrorNote error={usage.error} />
      {usage.data === undefined ? null : (
        <Section
          title={t('usage.runs', { n: formatNumber(usage.data.runs) })}
          actions={
            <span className="text-lg font-semibold" data-testid="usage-total">
              <Cost costUsd={usage.data.total.cost_usd} pricedCostUsd={usage.data.total.cost_usd_known} unpricedCalls={usage.data.total.unpriced_calls} />
            </span>
          }
        >
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
                  <td className="p-1"><Cost costUsd={row.cost_usd} pricedCostUsd={row.cost_usd_known} unpricedCalls={row.unpriced_calls} /></td>
                </tr>
              ))}
            </tbody>
          </ScrollingTable>
        </Section>
      )}
    </div>
  );
}
