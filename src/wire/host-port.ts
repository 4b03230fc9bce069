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
  const m = /^(?:\[([0-9a-fA-F:.]+)\]|([^:\[\]]*)):(\d{1,5})$/.exec(text);
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
