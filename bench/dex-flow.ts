/**
 * The fixed random flow of the order book benchmarks: N limit orders around a mid price,
 * from a seeded generator (the same flow every run, on every machine).
 */
export interface FlowOrder {
  side: 0 | 1; // 0 Buy, 1 Sell
  price: number;
  size: number;
  owner: number; // index into a small set of owners
}

/** A seeded xorshift32 generator of numbers in [0, 1): the same sequence on every machine. */
export function xorshift32(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 0x1_0000_0000;
  };
}

export function makeFlow(n: number, seed = 42, mid = 10_000, spread = 100, owners = 64): FlowOrder[] {
  const rnd = xorshift32(seed);
  const flow: FlowOrder[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const side = rnd() < 0.5 ? 0 : 1;
    // Uniform around mid on both sides: about half of the orders cross on arrival.
    const offset = Math.floor(rnd() * (2 * spread + 1)) - spread;
    flow[i] = {
      side,
      price: mid + Math.round(offset),
      size: 1 + Math.floor(rnd() * 100),
      owner: Math.floor(rnd() * owners),
    };
  }
  return flow;
}
