/**
 * Headless Chromium for the browser tests (playwright-core driving the Debian chromium that
 * scripts/test-tools.mjs installs), and a page's errors collected for an assertion.
 */
import { chromium, type Browser, type Page } from 'playwright-core';

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** Push the page's uncaught errors and its console errors (and warnings, when asked) onto `problems`. */
export function collectPageProblems(page: Page, problems: string[], options: { warnings?: boolean } = {}): void {
  page.on('pageerror', (e) => problems.push(`pageerror: ${String(e)}`));
  page.on('console', (m) => {
    if (m.type() === 'error' || (options.warnings === true && m.type() === 'warning'))
      problems.push(`console ${m.type()}: ${m.text()}`);
  });
}
