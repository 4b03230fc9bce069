/**
 * Child process for test/channels/slow-client.test.ts: `clients` channels sockets subscribed
 * to blocks that read everything. For each block: its height and the delay from its
 * production (the harness puts `produced_us` in the block) to its receipt here, in ms.
 * Reports `{ready}` once subscribed, and `{heights, delays}` when told to stop.
 */
import WebSocket from 'ws';

const nowUs = () => (performance.timeOrigin + performance.now()) * 1000;

process.on('message', async (job: { url: string; clients: number } | { stop: true }) => {
  if ('stop' in job) return;
  const heights: number[][] = [];
  const delays: number[] = [];
  await Promise.all(
    Array.from({ length: job.clients }, (_, i) => {
      heights.push([]);
      return new Promise<void>((resolve, reject) => {
        const ws = new WebSocket(job.url, { perMessageDeflate: false });
        ws.on('message', (data: Buffer) => {
          const m = JSON.parse(data.toString()) as {
            type: string;
            height?: number;
            detail?: { block: { produced_us: number } };
          };
          if (m.type === 'subscribed') resolve();
          if (m.type !== 'block') return;
          heights[i]!.push(m.height!);
          delays.push((nowUs() - m.detail!.block.produced_us) / 1000);
        });
        ws.once('open', () => ws.send(JSON.stringify({ op: 'subscribe', id: 1, channel: 'blocks' })));
        ws.once('error', reject);
      });
    }),
  );
  process.send!({ ready: true });
  process.on('message', (m: { stop?: true }) => {
    if (m.stop) process.send!({ heights, delays }, () => process.exit(0));
  });
});
