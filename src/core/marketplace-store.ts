/** A skill packaged for customers, pinned at one version. Prices are in minor units (cents). */
export interface ProductRecord {
  readonly id: string;
  /** Unique, kebab-case: what customers name it by. */
  readonly name: string;
  /** The account selling it; null for the operator's. */
  readonly sellerId: string | null;
  readonly skillId: string;
  readonly skillVersion: number;
  readonly description: string;
  readonly priceMinor: number;
  /** ISO 4217, upper case. */
  readonly currency: string;
  /**
   * The fields of the skill's final result a customer gets; nothing else of it leaves. Empty: the
   * result is text (a summary), handed whole.
   */
  readonly outputFields: readonly string[];
  readonly published: boolean;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export type PurchaseStatus = 'running' | 'completed' | 'failed' | 'refused';

/** One customer run of a product: the usage ledger's row. */
export interface PurchaseRecord {
  readonly id: string;
  readonly productId: string;
  readonly customerId: string;
  /** The skill replay's run once it ended (the seller's record; a customer never reads it). */
  readonly runId: string | null;
  readonly skillVersion: number;
  readonly status: PurchaseStatus;
  /** The result handed to the customer, once completed. */
  readonly answer: string | null;
  /** What the run really cost in model calls (null when unknown). */
  readonly costUsd: number | null;
  /** The price charged: the product's price when completed, else 0. */
  readonly priceMinor: number;
  readonly currency: string;
  readonly createdAt: string;
  readonly finishedAt: string | null;
}

export type NewProduct = Pick<ProductRecord, 'id' | 'name' | 'sellerId' | 'skillId' | 'skillVersion' | 'description' | 'priceMinor' | 'currency' | 'outputFields' | 'published'>;

/** The marketplace: products and the usage ledger of their customer runs. */
export interface MarketplaceStore {
  /** Creates the product, or, when one of that name exists, moves its pin and terms (republishing). */
  upsertProduct(product: NewProduct): Promise<ProductRecord>;
  getProduct(name: string): Promise<ProductRecord | undefined>;
  /** Every product, by name; only published ones with `publishedOnly`. */
  listProducts(options?: { publishedOnly?: boolean }): Promise<ProductRecord[]>;
  setPublished(name: string, published: boolean): Promise<ProductRecord | undefined>;

  /** A purchase starting (status running, nothing charged yet). */
  createPurchase(purchase: Pick<PurchaseRecord, 'id' | 'productId' | 'customerId' | 'skillVersion' | 'currency'>): Promise<PurchaseRecord>;
  finishPurchase(id: string, outcome: Pick<PurchaseRecord, 'runId' | 'status' | 'answer' | 'costUsd' | 'priceMinor'>): Promise<PurchaseRecord>;
  getPurchase(id: string): Promise<PurchaseRecord | undefined>;
  /** One customer's purchases, newest first. */
  listPurchases(customerId: string, options?: { limit?: number }): Promise<PurchaseRecord[]>;
}
