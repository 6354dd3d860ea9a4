import type { Locator, Page } from 'playwright-core';
import { BrowserActionError } from './browser-errors.js';

/** Roles found by their accessible name first when clicking by text. */
const CLICKABLE_ROLES = ['link', 'button', 'menuitem', 'tab', 'checkbox', 'radio', 'option', 'switch'] as const;

/** A ref as snapshots print it, with or without its brackets: `e12`, `[e12]`, `f1e3` (inside a frame). */
export const REF_PATTERN = /^\[?((?:f\d+)?e\d+)\]?$/;

/** The element a ref of the latest snapshot names; throws `BrowserActionError` when the page has no such element now. */
export async function elementByRef(page: Page, ref: string, toolName: string): Promise<Locator> {
  const bare = REF_PATTERN.exec(ref.trim())?.[1] ?? ref;
  const element = page.getByRef(bare);
  if ((await element.count()) === 0) {
    throw new BrowserActionError(toolName, `the page has no element [${bare}] now.`, "Refs name elements of this page's latest snapshot; take a browser_snapshot and use one of its refs.");
  }
  return element;
}

/**
 * The one visible element showing `text`: a clickable element with that exact name, else an element with
 * that exact text, else one containing it. Throws `BrowserActionError` when none does, or when more than
 * one does at the first of those steps that finds any, rather than guessing which was meant.
 */
export async function elementByText(page: Page, text: string, toolName: string): Promise<Locator> {
  const byName = CLICKABLE_ROLES.map((role) => page.getByRole(role, { name: text, exact: true })).reduce((either, other) => either.or(other));
  for (const candidates of [byName, page.getByText(text, { exact: true }), page.getByText(text)]) {
    const visible = candidates.filter({ visible: true });
    const count = await visible.count();
    if (count === 1) return visible;
    if (count > 1) {
      throw new BrowserActionError(toolName, `${count} elements on the page show "${text}".`, 'Name the one you mean by its ref from the latest snapshot, e.g. {"ref": "e12"}.');
    }
  }
  throw new BrowserActionError(toolName, `nothing visible on the page shows "${text}".`, 'Take a browser_snapshot and use a ref from it, or the text exactly as the page shows it.');
}
