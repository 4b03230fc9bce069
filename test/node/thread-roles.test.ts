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
