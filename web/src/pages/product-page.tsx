import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../api/client.js';
import type { CustomerPurchase } from '../api/types.js';
import { SchemaForm } from '../components/schema-form.js';
import { ErrorNote, formatTime, Json, Loading, Ltr, PageTitle, Section, StatusBadge } from '../components/ui.js';
import { usePreferences } from '../i18n/preferences.js';
import { formatPrice } from './marketplace-page.js';

const POLL_MS = 700;

/** An object result's fields, or the text itself. */
function parsedResult(result: string | undefined): unknown {
  if (result === undefined) return undefined;
  try {
    return JSON.parse(result) as unknown;
  } catch {
    return result;
  }
}

/**
 * What a customer sees of a product: its contract (description, price, input form, output) and their
 * own results. It reads only the customer routes, which carry nothing of the skill behind the product.
 */
export default function ProductPage({ params }: { params: Record<string, string> }) {
  const { t, language } = usePreferences();
  const name = params['product']!;
  const queries = useQueryClient();
  const product = useQuery({ queryKey: ['product', name], queryFn: () => api.product(name) });
  const [purchaseId, setPurchaseId] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const purchase = useQuery({
    queryKey: ['purchase', purchaseId],
    queryFn: () => api.purchase(purchaseId!),
    enabled: purchaseId !== undefined,
    refetchInterval: (query) => (query.state.data?.status === 'running' ? POLL_MS : false),
  });
  const history = useQuery({ queryKey: ['purchases'], queryFn: api.purchases });
  if (product.isPending) return <Loading />;
  if (product.error !== null) return <ErrorNote error={product.error} />;
  const contract = product.data;
  const price = formatPrice(contract.price.amount_minor, contract.price.currency);
  const buy = async (inputs: Record<string, unknown>) => {
    setBusy(true);
    setError(null);
    try {
      const started = await api.buyProduct(name, inputs);
      setPurchaseId(started.purchase_id);
      queries.setQueryData(['purchase', started.purchase_id], started);
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };
  const current: CustomerPurchase | undefined = purchase.data;
  const result = current?.result === null || current?.result === undefined ? undefined : current.result;
  const parsed = parsedResult(result);
  return (
    <div>
      <PageTitle>
        <Ltr className="font-mono">{contract.product}</Ltr>
      </PageTitle>
      <p className="mb-4" dir="auto">{contract.description}</p>
      <Section title={t('market.buy', { price })}>
        <SchemaForm schema={contract.inputs_schema} submitLabel={t('market.buy', { price })} busy={busy} onSubmit={(inputs) => void buy(inputs)} />
        <ErrorNote error={error} />
      </Section>
      {current === undefined ? null : (
        <Section title={t('market.result')}>
          <div data-testid="purchase-result" data-status={current.status}>
            <p className="mb-2 flex flex-wrap items-center gap-2">
              <StatusBadge status={current.status} />
              <span>{t('market.charged', { price: formatPrice(current.charged.amount_minor, current.charged.currency) })}</span>
            </p>
            {current.status === 'running' ? <p role="status">{t('market.running')}</p> : null}
            {parsed !== null && typeof parsed === 'object' ? (
              <dl className="grid gap-1 text-sm sm:grid-cols-[max-content_1fr] sm:gap-x-4">
                {Object.entries(parsed as Record<string, unknown>).map(([field, value]) => (
                  <div key={field} className="contents">
                    <dt className="font-medium"><Ltr className="font-mono">{field}</Ltr></dt>
                    <dd><Ltr>{typeof value === 'string' ? value : JSON.stringify(value)}</Ltr></dd>
                  </div>
                ))}
              </dl>
            ) : result === undefined ? null : (
              <Json value={result} />
            )}
            {current.message === null ? null : <p className="mt-2 text-sm">{current.message}</p>}
          </div>
        </Section>
      )}
      <Section title={t('market.purchases')}>
        <ul className="flex flex-col gap-1 text-sm">
          {(history.data?.purchases ?? [])
            .filter((each) => each.product === name)
            .map((each) => (
              <li key={each.purchase_id} className="flex flex-wrap items-center gap-2">
                <StatusBadge status={each.status} />
                <span>{formatTime(each.created_at, language)}</span>
                <Ltr>{formatPrice(each.charged.amount_minor, each.charged.currency)}</Ltr>
              </li>
            ))}
        </ul>
      </Section>
    </div>
  );
}
