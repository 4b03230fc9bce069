/**
 * What the explorer's search box was given: a block height, a transaction id, an owner's
 * Base58 public key or a market UUID. Pure, so Node tests check it too.
 */
export type SearchTarget =
  | { kind: 'block'; height: number }
  | { kind: 'tx'; id: string }
  | { kind: 'owner'; owner: string }
  | { kind: 'market'; marketId: string }
  | { kind: 'invalid'; message: string };

const TX_ID = /^[0-9a-f]{16}-[0-9a-f]{4}-[0-9a-f]{4}$/i;
const BASE58_KEY = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function classify(input: string): SearchTarget {
  const text = input.trim();
  if (text === '')
    return { kind: 'invalid', message: 'type a block height, a transaction id, an owner (Base58) or a market id' };
  // 32+ digits without a 0 is a Base58 key (all '1's is the zero key), not a height.
  if (/^\d+$/.test(text) && !(text.length >= 32 && BASE58_KEY.test(text))) {
    const height = Number(text);
    if (text.length > 16 || !Number.isSafeInteger(height))
      return { kind: 'invalid', message: `height ${text.slice(0, 20)} is too large` };
    if (height === 0) return { kind: 'invalid', message: 'heights start at 1' };
    return { kind: 'block', height };
  }
  if (TX_ID.test(text)) return { kind: 'tx', id: text.toLowerCase() };
  if (UUID.test(text)) return { kind: 'market', marketId: text.toLowerCase() };
  if (BASE58_KEY.test(text)) return { kind: 'owner', owner: text };
  return {
    kind: 'invalid',
    message: `'${text.length > 48 ? `${text.slice(0, 48)}…` : text}' is not a block height, a transaction id (16-4-4 hex), an owner (Base58) or a market id (UUID)`,
  };
}

/** The page's location hash for a target: #/block/12, #/tx/<id>, #/owner/<b58>, #/market/<uuid>. */
export function hashOf(target: SearchTarget): string {
  switch (target.kind) {
    case 'block':
      return `#/block/${target.height}`;
    case 'tx':
      return `#/tx/${target.id}`;
    case 'owner':
      return `#/owner/${target.owner}`;
    case 'market':
      return `#/market/${target.marketId}`;
    default:
      return '#/';
  }
}

/** The target a location hash names; '' and '#/' are the latest block. */
export function fromHash(hash: string): SearchTarget | { kind: 'latest' } {
  const m = /^#\/(block|tx|owner|market)\/(.+)$/.exec(hash);
  if (!m) return { kind: 'latest' };
  const target = classify(decodeURIComponent(m[2]!));
  return target.kind === m[1] ? target : { kind: 'invalid', message: `bad link ${hash.slice(0, 80)}` };
}
