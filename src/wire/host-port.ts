/**
 * Host and port as one value: the one parser of `host:port` text (flags, a gateway's
 * listen address) and its formatter. IPv6 hosts are written in brackets: `[::1]:9090`.
 */

export interface HostPort {
  host: string;
  port: number;
}

/** Parses `host:port`, `[v6]:port` or `:port` (host 0.0.0.0); undefined when malformed. */
export function parseHostPort(text: string): HostPort | undefined {
  const m = /^(?:\[([0-9a-fA-F:.]+)\]|([^:[\]]*)):(\d{1,5})$/.exec(text);
  if (m === null) return undefined;
  const port = Number(m[3]);
  if (port > 65535) return undefined;
  const host = m[1] ?? (m[2] === '' ? '0.0.0.0' : m[2]);
  return { host, port };
}

/** Formats a host and port as `host:port`, bracketing an IPv6 host. */
export function formatHostPort(hp: HostPort): string {
  return hp.host.includes(':') ? `[${hp.host}]:${hp.port}` : `${hp.host}:${hp.port}`;
}

/** `host:port`, `[v6]:port`; port 0..65535 (0 = pick a free one). A flag names its host: no `:port`. */
export function parseAddress(text: string): HostPort {
  const t = text.trim();
  const named = !t.startsWith(':') && !/\s/.test(t);
  const hp = named ? parseHostPort(t) : undefined;
  if (hp) return hp;
  // Well formed but for a port above 65535: say so.
  if (named && parseHostPort(t.replace(/:\d{1,5}$/, ':0')))
    throw new Error(`port ${Number(t.slice(t.lastIndexOf(':') + 1))} is out of range 0..65535`);
  throw new Error(`expected host:port (e.g. 127.0.0.1:9090 or [::1]:9090), got '${text}'`);
}
