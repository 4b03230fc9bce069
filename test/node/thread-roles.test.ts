/**
 * Thread roles (docs/architecture.md "Threads and priorities"), seen from outside the node
 * as an operator sees them: the real `svc node` in a child process; its threads' Linux
 * names and nice values read from /proc/<pid>/task, and the per-thread CPU on /metrics.
 */
import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import { spawnNode, type NodeProcess } from '../support/node-process.js';
import { tempDirs } from '../support/temp-dirs.js';
import { until } from '../support/until.js';

/** Thread name -> nice values of the process's threads. */
function threads(pid: number): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const comm = readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const nice = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
      const name = Number(tid) === pid ? 'main' : comm;
      out.set(name, [...(out.get(name) ?? []), nice]);
    } catch {
      // the thread ended meanwhile
    }
  }
  return out;
}

/** CPU time (ms) of the main thread and of the svc-node thread so far, from /proc. */
function cpuMs(pid: number): { main: number; node: number } {
  const out = { main: 0, node: 0 };
  const hz = 100; // USER_HZ
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const comm = readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ms = ((Number(f[11]) + Number(f[12])) * 1000) / hz;
      if (Number(tid) === pid) out.main += ms;
      else if (comm === 'svc-node') out.node += ms;
    } catch {
      // the thread ended meanwhile
    }
  }
  return out;
}

describe("thread roles: names and priorities of the real node's threads", function () {
  this.timeout(60_000);
  const dirs = tempDirs('svc-threads-');
  let node: NodeProcess;

  before(async () => {
    node = await spawnNode(dirs.make(), ['--gateways', '0']);
  });
  after(async () => {
    node?.child.kill('SIGKILL');
    await node?.exited;
    dirs.removeAll();
  });

  it("names the clock, batcher and pool threads, keeps the clock at the main thread's priority and lowers the pool", async () => {
    const pid = node.child.pid!;
    await until('the pool threads', () => (threads(pid).has('svc-pool') ? true : undefined), 10_000);
    const seen = threads(pid);
    const main = seen.get('main')![0]!;
    expect(seen.get('svc-clock'), 'one clock thread').to.deep.equal([main]);
    expect(seen.get('svc-batcher'), 'one batcher thread').to.deep.equal([main]);
    for (const nice of seen.get('svc-pool')!)
      expect(nice, 'pool threads answer after ordering').to.equal(Math.min(19, main + 2));
  });

  it('runs the faces, the order book and the chain on svc-node, beside the main thread, which only orders', async () => {
    const pid = node.child.pid!;
    const seen = threads(pid);
    const main = seen.get('main')![0]!;
    // (A thread the node thread starts without naming it, such as LevelDB's background compaction
    // when the node thread's write starts it, keeps its name and priority.)
    expect(seen.get('svc-node'), 'the node thread').to.not.equal(undefined);
    for (const nice of seen.get('svc-node')!) expect(nice, "the process's own").to.equal(main);
    // 2,000 REST reads of stored ticks and 40 order book reads: the node thread's work, not the main thread's.
    await until('20 ticks', async () => {
      const s = (await (await fetch(`http://${node.addresses.rest}/api/v1/status`)).json()) as { latest_tick: number };
      return s.latest_tick >= 20 ? true : undefined;
    });
    const before = cpuMs(pid);
    for (let i = 0; i < 200; i++) {
      await Promise.all(
        Array.from({ length: 10 }, (_, j) =>
          fetch(`http://${node.addresses.rest}/api/v1/tick/${1 + ((i * 10 + j) % 20)}`).then((r) => r.arrayBuffer()),
        ),
      );
      if (i % 5 === 0) await fetch(`http://${node.addresses.dex}/markets`).then((r) => r.arrayBuffer());
    }
    const after = cpuMs(pid);
    const nodeMs = after.node - before.node;
    const mainMs = after.main - before.main;
    // The main thread keeps ticking meanwhile (heartbeats, the hand-over): /proc counts in 10 ms steps.
    expect(nodeMs, `svc-node ${nodeMs} ms, main ${mainMs} ms`).to.be.greaterThan(mainMs + 20);
  });

  it('reports CPU per thread on /metrics, the clock busiest', async () => {
    const text = await (await fetch(`http://${node.addresses.rest}/metrics`)).text();
    const cpu = new Map<string, number>();
    for (const m of text.matchAll(/^svc_thread_cpu_seconds_total\{thread="([^"]+)"\} (\S+)$/gm))
      cpu.set(m[1]!, Number(m[2]));
    expect([...cpu.keys()]).to.include.members(['main', 'svc-clock', 'svc-batcher', 'svc-pool']);
    // The clock squares without pause: after start-up it has used more CPU than the batcher.
    await new Promise((r) => setTimeout(r, 1000));
    const again = await (await fetch(`http://${node.addresses.rest}/metrics`)).text();
    const clock = Number(/^svc_thread_cpu_seconds_total\{thread="svc-clock"\} (\S+)$/m.exec(again)![1]);
    const batcher = Number(/^svc_thread_cpu_seconds_total\{thread="svc-batcher"\} (\S+)$/m.exec(again)![1]);
    expect(clock).to.be.greaterThan(batcher);
    expect(clock).to.be.at.least(cpu.get('svc-clock')!);
  });
});
