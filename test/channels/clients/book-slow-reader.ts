/**
 * Child process for test/channels/behind-client.test.ts: one channels socket (the `ws`
 * package) on a market's book channel that stops reading right after the snapshot (its TCP
 * socket paused, so the node's writes pile up in the kernel and then in the node's queue)
 * until told `{resume}`, then reads everything. It folds the snapshot and deltas as a client
 * does (by price; a level with 0 orders is gone) and checks each delta starts where the last
 * one ended (`first_seq`, else `seq`, = previous seq + 1). Says `{ready}` once it has the
 * snapshot; on `{until: seq}` answers `{result}` once a delta reached that seq (or the
 * socket closed).
 */
import WebSocket from 'ws';

type Row = [number, number, number];

export interface SlowReaderResult {
  deltas: number;
  folded: number; // deltas carrying first_seq
  breaks: number; // deltas that did not start at the previous seq + 1
  lastSeq: number;
  closeCode: number | null;
  bids: Row[];
  asks: Row[];
}

process.once('message', (job: { url: string; marketId: string }) => {
  const ws = new WebSocket(job.url, { perMessageDeflate: false });
  const bids = new Map<number, Row>();
  const asks = new Map<number, Row>();
  let seq = -1;
  let deltas = 0;
  let folded = 0;
  let breaks = 0;
  let closeCode: number | null = null;
  let until = Infinity;
  const report = (): void => {
    const result: SlowReaderResult = {
      deltas,
      folded,
      breaks,
      lastSeq: seq,
      closeCode,
      bids: [...bids.values()].sort((a, b) => b[0] - a[0]),
      asks: [...asks.values()].sort((a, b) => a[0] - b[0]),
    };
    process.send!({ result }, () => process.exit(0));
  };
  ws.on('message', (data: Buffer) => {
    const m = JSON.parse(data.toString()) as {
      type: string;
      seq: number;
      first_seq?: number;
      bids: Row[];
      asks: Row[];
    };
    if (m.type !== 'snapshot' && m.type !== 'delta') return;
    if (m.type === 'delta') {
      deltas++;
      if (m.first_seq !== undefined) folded++;
      if ((m.first_seq ?? m.seq) !== seq + 1) breaks++;
    }
    for (const [side, rows] of [
      [bids, m.bids],
      [asks, m.asks],
    ] as const)
      for (const r of rows) r[2] === 0 ? side.delete(r[0]) : side.set(r[0], r);
    seq = m.seq;
    if (m.type === 'snapshot') {
      (ws as unknown as { _socket: { pause(): void } })._socket.pause();
      process.send!({ ready: true });
    } else if (seq >= until) report();
  });
  ws.once('open', () => ws.send(JSON.stringify({ op: 'subscribe', id: 1, channel: 'book', market_id: job.marketId })));
  ws.on('close', (code) => {
    closeCode = code;
    report();
  });
  ws.on('error', () => undefined);
  process.on('message', (m: { resume?: true; until?: number }) => {
    if (m.resume) (ws as unknown as { _socket: { resume(): void } })._socket.resume();
    if (m.until !== undefined) {
      until = m.until;
      if (seq >= until) report();
    }
  });
});
