import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api } from '../api/client.js';
import type { SellerProduct } from '../api/types.js';
import { Badge, Empty, ErrorNote, Field, ForwardIcon, Loading, Ltr, PageTitle, Section } from '../components/ui.js';
import { usePreferences } from '../i18n/preferences.js';
import { Link } from '../router.js';

export function formatPrice(amountMinor: number, currency: string): string {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).format(amountMinor / 100);
  } catch {
    return `${(amountMinor / 100).toFixed(2)} ${currency}`;
  }
}

/** The seller's side: package one of their skills as a product with a price, and publish it. */
function PackageSkill() {
  const { t } = usePreferences();
  const queries = useQueryClient();
  const skills = useQuery({ queryKey: ['skills'], queryFn: api.skills });
  const [skill, setSkill] = useState('');
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [price, setPrice] = useState('0');
  const [currency, setCurrency] = useState('EUR');
  const [outputs, setOutputs] = useState('');
  const [published, setPublished] = useState<SellerProduct | undefined>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const chosen = skill === '' ? skills.data?.skills[0]?.skill : skill;
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (chosen === undefined) return;
    setBusy(true);
    setError(null);
    try {
      const fields = outputs.split(',').map((field) => field.trim()).filter((field) => field !== '');
      setPublished(await api.publishProduct({ skill: chosen, name: name.trim(), description: description.trim(), price_minor: Number(price), currency: currency.trim().toUpperCase(), ...(fields.length === 0 ? {} : { output_fields: fields }), published: true }));
      await queries.invalidateQueries({ queryKey: ['products'] });
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Section title={t('market.package')}>
      {skills.data?.skills.length === 0 ? <Empty>{t('skills.empty')}</Empty> : null}
      <form onSubmit={(event) => void submit(event)} className="grid gap-x-4 sm:grid-cols-2">
        <Field label={t('market.skill')}>
          {(id) => (
            <select id={id} className="input" value={chosen ?? ''} onChange={(event) => setSkill(event.target.value)} required>
              {(skills.data?.skills ?? []).map((each) => (
                <option key={each.skill} value={each.skill}>
                  {each.skill}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label={t('market.product')}>{(id) => <input id={id} className="input" dir="ltr" value={name} onChange={(event) => setName(event.target.value)} required pattern="[a-z0-9]+(-[a-z0-9]+)*" />}</Field>
        <Field label={t('common.description')}>{(id) => <input id={id} className="input" value={description} onChange={(event) => setDescription(event.target.value)} required />}</Field>
        <Field label={t('market.price')}>{(id) => <input id={id} className="input" type="number" min={0} step={1} value={price} onChange={(event) => setPrice(event.target.value)} required />}</Field>
        <Field label={t('market.currency')}>{(id) => <input id={id} className="input" dir="ltr" value={currency} onChange={(event) => setCurrency(event.target.value)} required maxLength={3} minLength={3} />}</Field>
        <Field label={t('market.outputs')}>{(id) => <input id={id} className="input" dir="ltr" value={outputs} onChange={(event) => setOutputs(event.target.value)} />}</Field>
        <div className="sm:col-span-2">
          <button type="submit" className="btn btn-primary" disabled={busy || chosen === undefined}>
            {t('market.publish')}
          </button>
        </div>
      </form>
      <ErrorNote error={error} />
      {published === undefined ? null : (
        <p className="mt-2 text-sm" role="status" data-testid="published">
          {t('market.published', { name: published.product })} · <Ltr>{formatPrice(published.price.amount_minor, published.price.currency)}</Ltr> ·{' '}
          <Link to={`/marketplace/${encodeURIComponent(published.product)}`} className="text-orange-800 underline dark:text-orange-300">
            {t('market.open')}
          </Link>
        </p>
      )}
    </Section>
  );
}

export default function MarketplacePage() {
  const { t } = usePreferences();
  const products = useQuery({ queryKey: ['products'], queryFn: api.products });
  return (
    <div>
      <PageTitle>{t('market.title')}</PageTitle>
      <PackageSkill />
      <Section title={t('market.catalog')}>
        {products.isPending ? <Loading /> : null}
        <ErrorNote error={products.error} />
        {products.data?.products.length === 0 ? <Empty>{t('common.none')}</Empty> : null}
        <ul className="grid gap-3 md:grid-cols-2">
          {(products.data?.products ?? []).map((product) => (
            <li key={product.product} className="rounded-md border border-stone-200 p-3 dark:border-stone-700" data-testid="product-row">
              <p className="flex flex-wrap items-center gap-2">
                <Ltr className="font-mono font-semibold">{product.product}</Ltr>
                <Badge tone="green">
                  <Ltr>{formatPrice(product.price.amount_minor, product.price.currency)}</Ltr>
                </Badge>
              </p>
              <p className="mt-1 text-sm" dir="auto">{product.description}</p>
              <Link to={`/marketplace/${encodeURIComponent(product.product)}`} className="mt-2 inline-flex items-center gap-1 text-sm text-orange-800 underline dark:text-orange-300">
                {t('market.open')}
                <ForwardIcon />
              </Link>
            </li>
          ))}
        </ul>
      </Section>
    </div>
  );
}
