/**
 * The external programs tests drive (Chromium, nats-server, curl), found the way `npm test`'s
 * pretest step finds them (scripts/test-tools.mjs: the tool's variable such as CHROME_PATH,
 * the usual paths, PATH, playwright's cache). A missing tool fails the test with the line
 * that says how to get it: browser and queue tests are never skipped silently.
 */
import { chromium, type Browser } from 'playwright-core';

interface ToolFinder {
  findTool(name: string, env?: NodeJS.ProcessEnv): { path?: string; missing?: string };
}

// The script lives outside the compiled tree (it runs before the build): load it by URL.
const finder = import(new URL('../../../scripts/test-tools.mjs', import.meta.url).href) as Promise<ToolFinder>;

/** Absolute path of a test tool ('chromium', 'nats-server', 'curl'), or throw saying how to get it. */
export async function toolPath(name: string): Promise<string> {
  const found = (await finder).findTool(name);
  if (!found.path) throw new Error(found.missing ?? `${name} not found`);
  return found.path;
}

/** Flags for a quiet headless Chromium in containers and CI. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** A real headless Chromium driven by playwright-core. */
export async function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: await toolPath('chromium'), args: CHROMIUM_ARGS });
}
