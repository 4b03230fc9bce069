import { expect } from 'chai';
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

describe('svc/sdk is browser-safe', () => {
  it('bundles for the browser platform with no node:* imports', async () => {
    const entry = fileURLToPath(new URL('../../src/sdk/index.js', import.meta.url));
    const result = await build({
      entryPoints: [entry],
      bundle: true,
      platform: 'browser',
      format: 'esm',
      write: false,
      logLevel: 'silent',
      metafile: true,
    });
    const inputs = Object.keys(result.metafile!.inputs);
    expect(inputs.filter((i) => i.startsWith('node:') || i.includes('node_modules/@types/node'))).to.deep.equal([]);
    expect(result.outputFiles[0]!.text).to.contain('SVC_DEX_ORDER:');
  });
});
