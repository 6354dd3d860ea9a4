import { NotFoundError, type MarketplaceStore, type NewProduct, type ProductRecord, type PurchaseRecord, type PurchaseStatus } from '../../../core/index.js';
import { readNullableNumber, readNullableText, readNumber, readText } from './row-values.js';
import type { SqlAccess, SqlRow } from './sql-access.js';

const productColumns = 'id, name, seller_id, skill_id, skill_version, description, price_minor, currency, output_fields, published, created_at, updated_at';
const purchaseColumns = 'id, product_id, customer_id, run_id, skill_version, status, answer, cost_usd, price_minor, currency, created_at, finished_at';

/** Products in `products` (one row per name; republishing updates it) and the ledger in `purchases`. */
export class SqlMarketplaceStore implements MarketplaceStore {
  constructor(private readonly sql: SqlAccess) {}

  async upsertProduct(product: NewProduct): Promise<ProductRecord> {
    const now = new Date().toISOString();
    await this.sql.write([
      {
        statement: {
          sql: `INSERT INTO products (${productColumns}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (name) DO UPDATE SET skill_id = excluded.skill_id, skill_version = excluded.skill_version, description = excluded.description,
                  price_minor = excluded.price_minor, currency = excluded.currency, output_fields = excluded.output_fields, published = excluded.published, updated_at = excluded.updated_at`,
          args: [product.id, product.name, product.sellerId, product.skillId, product.skillVersion, product.description, product.priceMinor, product.currency, JSON.stringify(product.outputFields), product.published ? 1 : 0, now, now],
        },
      },
    ]);
    return (await this.getProduct(product.name))!;
  }

  async getProduct(name: string): Promise<ProductRecord | undefined> {
    const result = await this.sql.read({ sql: `SELECT ${productColumns} FROM products WHERE name = ?`, args: [name] });
    const row = result.rows[0];
    return row === undefined ? undefined : productFromRow(row);
  }

  async listProducts(options: { publishedOnly?: boolean } = {}): Promise<ProductRecord[]> {
    const result = await this.sql.read(`SELECT ${productColumns} FROM products${options.publishedOnly === true ? ' WHERE published = 1' : ''} ORDER BY name`);
    return result.rows.map(productFromRow);
  }

  async setPublished(name: string, published: boolean): Promise<ProductRecord | undefined> {
    await this.sql.write([{ statement: { sql: 'UPDATE products SET published = ?, updated_at = ? WHERE name = ?', args: [published ? 1 : 0, new Date().toISOString(), name] } }]);
    return this.getProduct(name);
  }

  async createPurchase(purchase: Pick<PurchaseRecord, 'id' | 'productId' | 'customerId' | 'skillVersion' | 'currency'>): Promise<PurchaseRecord> {
    const record: PurchaseRecord = { ...purchase, runId: null, status: 'running', answer: null, costUsd: null, priceMinor: 0, createdAt: new Date().toISOString(), finishedAt: null };
    await this.sql.write([
      {
        statement: {
          sql: `INSERT INTO purchases (${purchaseColumns}) VALUES (?, ?, ?, NULL, ?, 'running', NULL, NULL, 0, ?, ?, NULL)`,
          args: [record.id, record.productId, record.customerId, record.skillVersion, record.currency, record.createdAt],
        },
      },
    ]);
    return record;
  }

  async finishPurchase(id: string, outcome: Pick<PurchaseRecord, 'runId' | 'status' | 'answer' | 'costUsd' | 'priceMinor'>): Promise<PurchaseRecord> {
    const [result] = await this.sql.write([
      {
        statement: {
          sql: 'UPDATE purchases SET run_id = ?, status = ?, answer = ?, cost_usd = ?, price_minor = ?, finished_at = ? WHERE id = ?',
          args: [outcome.runId, outcome.status, outcome.answer, outcome.costUsd, outcome.priceMinor, new Date().toISOString(), id],
        },
      },
    ]);
    if (result!.rowsAffected !== 1) throw new NotFoundError('purchase', id);
    return (await this.getPurchase(id))!;
  }

  async getPurchase(id: string): Promise<PurchaseRecord | undefined> {
    const result = await this.sql.read({ sql: `SELECT ${purchaseColumns} FROM purchases WHERE id = ?`, args: [id] });
    const row = result.rows[0];
    return row === undefined ? undefined : purchaseFromRow(row);
  }

  async listPurchases(customerId: string, options: { limit?: number } = {}): Promise<PurchaseRecord[]> {
    const result = await this.sql.read({ sql: `SELECT ${purchaseColumns} FROM purchases WHERE customer_id = ? ORDER BY created_at DESC, id DESC LIMIT ?`, args: [customerId, options.limit ?? 100] });
    return result.rows.map(purchaseFromRow);
  }
}

function productFromRow(row: SqlRow): ProductRecord {
  return {
    id: readText(row, 'id'),
    name: readText(row, 'name'),
    sellerId: readNullableText(row, 'seller_id'),
    skillId: readText(row, 'skill_id'),
    skillVersion: readNumber(row, 'skill_version'),
    description: readText(row, 'description'),
    priceMinor: readNumber(row, 'price_minor'),
    currency: readText(row, 'currency'),
    outputFields: JSON.parse(readText(row, 'output_fields')) as string[],
    published: readNumber(row, 'published') === 1,
    createdAt: readText(row, 'created_at'),
    updatedAt: readText(row, 'updated_at'),
  };
}

function purchaseFromRow(row: SqlRow): PurchaseRecord {
  return {
    id: readText(row, 'id'),
    productId: readText(row, 'product_id'),
    customerId: readText(row, 'customer_id'),
    runId: readNullableText(row, 'run_id'),
    skillVersion: readNumber(row, 'skill_version'),
    status: readText(row, 'status') as PurchaseStatus,
    answer: readNullableText(row, 'answer'),
    costUsd: readNullableNumber(row, 'cost_usd'),
    priceMinor: readNumber(row, 'price_minor'),
    currency: readText(row, 'currency'),
    createdAt: readText(row, 'created_at'),
    finishedAt: readNullableText(row, 'finished_at'),
  };
}
