import type * as Undici from 'undici';

let undici: Promise<typeof Undici> | undefined;

/**
 * undici, loaded with the first request rather than with the process: it takes ~150 ms to load, and
 * most commands never send a request.
 */
export function loadUndici(): Promise<typeof Undici> {
  undici ??= import('undici');
  return undici;
}
