/** Reading a file argument where `-` means standard input (`--file -`, `--receipt -`). */
import { readFile } from 'node:fs/promises';

export async function readFileOrStdin(path: string): Promise<string> {
  if (path !== '-') return readFile(path, 'utf8');
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
