/**
 * The door of the explorer web page on the rpc port (explorer-page.ts: the page, its files
 * and its Content-Security-Policy).
 */
export { explorerPage } from './explorer-page.js';
