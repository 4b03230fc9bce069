import { MemoryChain } from './dist/bench/chain-mq.bench.js';
import { startMqPublisher } from './dist/src/chain/mq/index.js';
import { natsServer } from './dist/test/support/nats-server.js';
import { connect } from '@nats-io/transport-node';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
const chain = new MemoryChain(40000);
const nats = await natsServer();
const nc = await connect({ servers: nats.url }); const js = jetstream(nc); const jsm = await jetstreamManager(nc);
await jsm.streams.add({ name: 'B', subjects: ['b.>'] });
const msgs = (await chain.transactionsAfter(0n, 40000)).map(t => ({ subject: 'b.' + t.marketId, data: t.body, id: t.id }));
async function run(name, mk) {
  await jsm.streams.purge('B');
  const t0 = performance.now(); const c0 = process.cpuUsage();
  await new Promise((resolve, reject) => { let next = 0, done = 0, inflight = 0;
    const pump = () => { while (inflight < 512 && next < msgs.length) { const i = next++; inflight++; js.publish(msgs[i].subject, msgs[i].data, mk(i)).then(() => { inflight--; if (++done === msgs.length) resolve(); else pump(); }, reject); } }; pump(); });
  const c = process.cpuUsage(c0);
  console.log(name, 'cpu us/msg', ((c.user + c.system) / msgs.length).toFixed(1), 'wall s', ((performance.now() - t0) / 1000).toFixed(2));
}
const { headers } = await import('@nats-io/transport-node');
for (let r = 0; r < 2; r++) {
  await run('bare', () => ({ timeout: 10000 }));
  await run('msgid', (i) => ({ msgID: msgs[i].id, timeout: 10000 }));
  let base = (await jsm.streams.info('B')).state.last_seq;
  await run('msgid+expect', (i) => ({ msgID: msgs[i].id, expect: { lastSequence: base + i }, timeout: 10000 }));
  base = (await jsm.streams.info('B')).state.last_seq;
  await run('msgid+expect+3hdr', (i) => { const h = headers(); h.set('Svc-Kind', 'tx'); h.set('Svc-Height', '12'); h.set('Svc-Continuum-Sequence', '123456789012'); return { msgID: msgs[i].id, expect: { lastSequence: base + i }, headers: h, timeout: 10000 }; });
}
await nc.close(); await nats.dispose();
