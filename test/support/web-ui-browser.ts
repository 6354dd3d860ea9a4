import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/** Headless Debian Chromium, as Forge's browser tools launch it (without a sandbox only as root, where it cannot have one). */
export function launchChromium(): Promise<Browser> {
  const root = process.getuid?.() === 0;
  return chromium.launch({ executablePath: process.env['FORGE_CHROMIUM_PATH'] ?? '/usr/bin/chromium', headless: true, args: [...(root ? ['--no-sandbox'] : []), '--disable-background-networking'] });
}

/** What went wrong in the pages a test watched: console errors, uncaught exceptions, failed requests to the app's own origin. */
export class PageProblems {
  readonly problems: string[] = [];

  /** Watches `page`; requests the page itself abandons (a closed event stream, a navigation) are not failures. */
  watch(page: Page, origin: string): Page {
    page.on('console', (message) => {
      if (message.type() === 'error') this.problems.push(`console error on ${page.url()}: ${message.text()}`);
    });
    page.on('pageerror', (error) => this.problems.push(`uncaught on ${page.url()}: ${error.message}`));
    page.on('requestfailed', (request) => {
      const failure = request.failure()?.errorText ?? '';
      if (request.url().startsWith(origin) && failure !== 'net::ERR_ABORTED') this.problems.push(`request failed: ${request.method()} ${request.url()} ${failure}`);
    });
    page.on('response', (response) => {
      if (response.url().startsWith(origin) && response.status() >= 400) this.problems.push(`HTTP ${response.status()}: ${response.request().method()} ${response.url()}`);
    });
    return page;
  }
}

/** A new context's page at `origin`, signed in through the login page. */
export async function signedInPage(context: BrowserContext, origin: string, problems: PageProblems, email: string, password: string): Promise<Page> {
  const page = problems.watch(await context.newPage(), origin);
  await page.goto(`${origin}/`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${origin}/chat`);
  return page;
}
