/**
 * The address of a gRPC call's peer, without its port: what per-address limits count (one
 * host, one budget), from grpc-js's getPeer() text.
 */

/** "ipv4:127.0.0.1:5000" -> "127.0.0.1", "ipv6:[::1]:5000" -> "::1" (grpc-js getPeer() forms). */
export function peerAddress(peer: string): string {
  const p = peer.replace(/^(ipv4|ipv6|unix):/, '');
  const v6 = /^\[([^\]]*)\](?::\d+)?$/.exec(p);
  if (v6) return v6[1]!;
  const i = p.lastIndexOf(':');
  return i > 0 && p.indexOf(':') === i ? p.slice(0, i) : p;
}
