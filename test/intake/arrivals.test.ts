/**
 * The arrival line (src/intake/arrivals.ts): admission strictly in arrival order
 * whatever order intakes finish in; a ready submission with nobody ahead is admitted
 * synchronously; a failed intake leaves the line without blocking the others.
 */
import { expect } from 'chai';
import { ArrivalQueue } from '../../src/intake/index.js';

function deferred<T>(): { promise: Promise<T>; resolve: (v: T) => void; reject: (e: unknown) => void } {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('intake/arrivals', () => {
  it('admits in arrival order when intakes finish in reverse order', async () => {
    const admitted: string[] = [];
    const q = new ArrivalQueue<string, number>((v) => admitted.push(v));
    const d = [deferred<string>(), deferred<string>(), deferred<string>()];
    const results = d.map((x) => q.submit(x.promise));
    const ready = q.submit('ready-4'); // ready, but three are ahead of it
    expect(q.waiting).to.equal(4);
    d[2]!.resolve('c');
    d[1]!.resolve('b');
    await new Promise((r) => setImmediate(r));
    expect(admitted).to.deep.equal([]); // the first is still in intake
    d[0]!.resolve('a');
    expect(await Promise.all([...results, ready])).to.deep.equal([1, 2, 3, 4]);
    expect(admitted).to.deep.equal(['a', 'b', 'c', 'ready-4']);
    expect(q.waiting).to.equal(0);
  });

  it('a ready submission with nobody ahead is admitted synchronously', () => {
    const admitted: number[] = [];
    const q = new ArrivalQueue<number, void>((v) => void admitted.push(v));
    void q.submit(1);
    void q.submit(2);
    expect(admitted).to.deep.equal([1, 2]);
  });

  it('a failed intake is rejected in its turn; the ones behind it are admitted', async () => {
    const admitted: string[] = [];
    const q = new ArrivalQueue<string, string>((v) => {
      if (v === 'refuse') throw new Error('refused by admit');
      admitted.push(v);
      return v;
    });
    const bad = deferred<string>();
    const first = q.submit(bad.promise);
    const second = q.submit(Promise.resolve('refuse'));
    const third = q.submit('ok');
    bad.reject(new Error('malformed request'));
    const settled = await Promise.allSettled([first, second, third]);
    expect(settled.map((s) => s.status)).to.deep.equal(['rejected', 'rejected', 'fulfilled']);
    expect((settled[0] as PromiseRejectedResult).reason.message).to.equal('malformed request');
    expect((settled[1] as PromiseRejectedResult).reason.message).to.equal('refused by admit');
    expect(admitted).to.deep.equal(['ok']);
  });
});
