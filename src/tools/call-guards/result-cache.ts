import { canonicalJson } from '../../core/canonical-json.js';
import type { Clock } from './call-guard-settings.js';

/** A result exactly as the model was shown it. */
export interface CachedResult {
  readonly output: string;
  readonly truncated: boolean;
  readonly untrusted: boolean;
}

interface Entry extends CachedResult {
  readonly storedAt: number;
  readonly bytes: number;
}

export interface ResultCacheOptions {
  readonly ttlMs: number;
  readonly maxEntries: number;
  readonly maxBytes: number;
  readonly clock: Clock;
}

/**
 * One run's results of read-only calls, by `resultKey`: tool name and canonical input (keys sorted, so
 * key order never makes two identical calls differ). An entry is served for `ttlMs` after it was stored; at most
 * `maxEntries` entries and `maxBytes` bytes are held, the least recently used dropped first, and a
 * result larger than the whole budget is never held.
 */
export class ResultCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;

  constructor(private readonly options: ResultCacheOptions) {}

  /** The result stored under `key` (see `resultKey`) within the TTL; undefined when there is none (an expired one is dropped). */
  get(key: string): CachedResult | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    this.entries.delete(key);
    if (this.options.clock() - entry.storedAt >= this.options.ttlMs) {
      this.bytes -= entry.bytes;
      return undefined;
    }
    // Re-inserted: the map's order is least recently used first.
    this.entries.set(key, entry);
    return { output: entry.output, truncated: entry.truncated, untrusted: entry.untrusted };
  }

  set(key: string, result: CachedResult): void {
    const bytes = 2 * (key.length + result.output.length);
    this.delete(key);
    if (bytes > this.options.maxBytes || this.options.maxEntries === 0) return;
    this.entries.set(key, { output: result.output, truncated: result.truncated, untrusted: result.untrusted, storedAt: this.options.clock(), bytes });
    this.bytes += bytes;
    for (const [oldest] of this.entries) {
      if (this.entries.size <= this.options.maxEntries && this.bytes <= this.options.maxBytes) break;
      this.delete(oldest);
    }
  }

  /** Drops every entry: a write may have changed what any read would return. */
  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }

  /** Entries and bytes held now. */
  get size(): { readonly entries: number; readonly bytes: number } {
    return { entries: this.entries.size, bytes: this.bytes };
  }

  private delete(key: string): void {
    const entry = this.entries.get(key);
    if (entry === undefined) return;
    this.entries.delete(key);
    this.bytes -= entry.bytes;
  }
}

/** What identical calls share: the tool's name and the input as canonical JSON (keys sorted). */
export function resultKey(tool: string, input: unknown): string {
  return `${tool}\n${canonicalJson(input ?? {})}`;
}
