/**
 * Primality test for the 128-bit Wesolowski challenge l (BigInt; used by every engine
 * so they agree on l): trial division by the odd primes below 1000, then Miller-Rabin
 * with the first 12 prime bases. Candidates are SHA-256 outputs, so a composite passing
 * 12 random-looking strong-pseudoprime rounds is not a practical concern (docs/vdf.md).
 */

export const SMALL_PRIMES: number[] = (() => {
  const out: number[] = [];
  for (let n = 3; n < 1000; n += 2) {
    let prime = true;
    for (let d = 3; d * d <= n; d += 2)
      if (n % d === 0) {
        prime = false;
        break;
      }
    if (prime) out.push(n);
  }
  return out;
})();

/** Products of consecutive small primes, each < 2^31, so one BigInt % per group. */
const GROUPS: { product: bigint; primes: number[] }[] = (() => {
  const groups: { product: bigint; primes: number[] }[] = [];
  let cur: number[] = [];
  let prod = 1;
  for (const p of SMALL_PRIMES) {
    if (prod * p >= 2 ** 31) {
      groups.push({ product: BigInt(prod), primes: cur });
      cur = [];
      prod = 1;
    }
    cur.push(p);
    prod *= p;
  }
  if (cur.length) groups.push({ product: BigInt(prod), primes: cur });
  return groups;
})();

export const MR_BASES = [2n, 3n, 5n, 7n, 11n, 13n, 17n, 19n, 23n, 29n, 31n, 37n];

export function modPow(base: bigint, exp: bigint, mod: bigint): bigint {
  let result = 1n;
  let b = base % mod;
  let e = exp;
  while (e > 0n) {
    if (e & 1n) result = (result * b) % mod;
    b = (b * b) % mod;
    e >>= 1n;
  }
  return result;
}

/** n mod p for every odd prime p < 1000 (one BigInt division per group of primes). */
export function smallPrimeResidues(n: bigint): number[] {
  const out: number[] = [];
  for (const g of GROUPS) {
    const r = Number(n % g.product);
    for (const p of g.primes) out.push(r % p);
  }
  return out;
}

/** Trial division only: false when n has a small odd factor (n itself must exceed 1000). */
export function passesTrialDivision(n: bigint): boolean {
  for (const g of GROUPS) {
    const r = Number(n % g.product);
    for (const p of g.primes) if (r % p === 0) return false;
  }
  return true;
}

/** Strong probable-prime test to base a (n odd, n > a). */
export function millerRabin(n: bigint, a: bigint): boolean {
  let d = n - 1n;
  let s = 0;
  while ((d & 1n) === 0n) {
    d >>= 1n;
    s++;
  }
  let x = modPow(a, d, n);
  if (x === 1n || x === n - 1n) return true;
  for (let i = 1; i < s; i++) {
    x = (x * x) % n;
    if (x === n - 1n) return true;
    if (x === 1n) return false;
  }
  return false;
}

/** Primality of an odd n > 1000 (the 128-bit challenge candidates). */
export function isProbablePrime(n: bigint): boolean {
  if (n < 1000n) {
    if (n < 2n) return false;
    const k = Number(n);
    for (let d = 2; d * d <= k; d++) if (k % d === 0) return false;
    return true;
  }
  if ((n & 1n) === 0n) return false;
  if (!passesTrialDivision(n)) return false;
  for (const a of MR_BASES) if (!millerRabin(n, a)) return false;
  return true;
}
