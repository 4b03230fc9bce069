/**
 * The house's rules, checked by `npm run check:house` (part of `npm test`, so of CI):
 *
 * 1. Floors. Each folder of src/ stands on one floor and imports only from lower floors
 *    or its own folder. FLOORS below is the one statement of the order; docs/architecture.md
 *    draws it.
 * 2. Doors. Another folder is entered only through its `index.ts` (a sub-folder that is a
 *    part of its own, like src/dex/engine or src/dex/api, through its own `index.ts`; and a
 *    sub-part enters its parent by the parent's door).
 * 3. No circles, and nothing in src/ imports a worker entry (workers/ are thin shells over
 *    src/ libraries; a worker is named by its file path, never imported).
 * 4. The never-rules of the target house (../shared/house.json), each by name.
 *
 * Type-only imports count: a type is as much a dependency of a file as a value.
 */

/** Lowest first. A folder may import its own files and any folder on a lower floor. */
const FLOORS = [
  ['crypto', 'db', 'pool', 'log'], // hashes, signatures, hex and bytes; the database, worker pools, logging
  ['core'], // transactions and ticks: types and byte forms
  ['wire', 'vdf'], // shared wire codecs (protobuf, JSON, hex, addresses); the VDF
  ['store', 'clock', 'intake', 'sdk', 'sequencer/api/client', 'chain/api/client'], // tick storage, the clock, the intake line, the client SDK; the faces' gRPC clients and their .protos (no server: a command that dials loads only these)
  ['sequencer'], // orders transactions into ticks
  ['dex/engine'], // the pure order book engine
  ['dex', 'proofs'], // the order book runtime; proofs a user can hold
  ['chain/core', 'browser'], // blocks, state roots, the chain store; the standalone browser verifier (one bundle)
  ['chain'], // the chain's runtime: the chain the order book feeds, its consumers, the JetStream producer
  ['sequencer/api', 'chain/api', 'dex/api'], // the faces: what listens on a port or answers a client
  ['dex/api/gateway'], // the gateway processes: the order book port and the chain's gRPC order entry across cores
  ['follow', 'channels', 'indexer'], // a full node (a client of a leader's faces, feeding its own chain); live channels on the explorer's socket; the indexer (stream -> PostgreSQL)
  ['config', 'metrics'], // the one flag table; metrics
  ['node'], // start-up: builds every part in order
  ['cli'], // the command line
];

/** Sub-folders that are parts of their own, with their own door. */
const SUB_PARTS = FLOORS.flat().filter((f) => f.includes('/'));

const esc = (s) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
/** One pattern for the files of folder f, not of its sub-parts. */
function ownFiles(f) {
  const subs = SUB_PARTS.filter((s) => s.startsWith(`${f}/`)).map((s) => esc(s.slice(f.length + 1)));
  return subs.length ? `^src/${esc(f)}/(?!(${subs.join('|')})/)` : `^src/${esc(f)}/`;
}
/** Matches files of folder f, not of its sub-parts. */
function filesOf(f) {
  const subs = SUB_PARTS.filter((s) => s.startsWith(`${f}/`));
  return { path: `^src/${esc(f)}/`, pathNot: subs.map((s) => `^src/${esc(s)}/`) };
}

/**
 * One rule per pair (part, a part above it or beside it): a sub-part's files are its own, not its
 * parent's, so a domain and its own sub-parts are held like any two parts (src/sequencer may not
 * import src/sequencer/api, which stands above it; src/dex/engine may not import src/dex).
 */
const floorRules = [];
FLOORS.forEach((floor, i) => {
  for (const f of floor) {
    const above = FLOORS.slice(i + 1).flat();
    const beside = floor.filter((s) => s !== f);
    for (const [kind, targets] of [['above', above], ['beside', beside]]) {
      for (const t of targets) {
        floorRules.push({
          name: `floor:${f}->${t}`,
          comment: kind === 'above' ? `${f} stands below ${t}: imports go down the floors, never up` : `${f} and ${t} stand side by side: neither imports the other`,
          severity: 'error',
          from: filesOf(f),
          to: filesOf(t),
        });
      }
    }
  }
});

/**
 * Every part's door: another part reaches it only through its index.ts; for its types and
 * option defaults alone, through its interface.ts (which imports only types, so it loads
 * nothing: the flag table reads each domain's defaults there without loading the domain);
 * from code a browser loads, through its browser-safe.ts (the same surface minus what needs
 * Node). Worker
 * entries are entry points like tests: each imports the one file that holds its task, so a
 * thread loads no more than it runs.
 */
const parts = FLOORS.flat();
const doorRules = parts.map((p) => {
  const inside = filesOf(p);
  return {
    name: `door:${p}`,
    comment: `other folders import ${p} only through src/${p}/index.ts (types and defaults: interface.ts; browser code: browser-safe.ts)`,
    severity: 'error',
    from: { path: '^src/', pathNot: [ownFiles(p)] }, // its own sub-parts (its api/) come in by the door too
    to: { path: inside.path, pathNot: [`^src/${esc(p)}/(index|interface|browser-safe)\\.ts$`, ...inside.pathNot] },
  };
});

/** The target house's never-rules (../shared/house.json), by their names there. */
const neverRules = [
  ['store-knows-no-sequencer', '^src/store/', '^src/sequencer/', 'the store knows no sequencer'],
  ['chain-knows-no-sequencer-face', '^src/chain/', '^src/sequencer/api/', 'shared codecs come from below, not a face'],
  ['sequencer-face-knows-no-chain', '^src/sequencer/api/', '^src/chain/', 'the sequencer face knows no chain'],
  ['engine-knows-no-runtime', '^src/dex/engine/', '^src/dex/(?!engine/)', 'the pure engine knows no runtime or face'],
  ['engine-stands-on-core-and-crypto', '^src/dex/engine/', '^src/(?!core/|crypto/|dex/engine/)', 'the pure engine imports only src/core and src/crypto'],
  ['indexer-is-its-own-process', '^src/(?!cli/|config/|indexer/)', '^src/indexer/', 'the indexer is a process of its own: only the command line (and the flag table, for its defaults) reach it'],
  ['server-helpers-come-from-pure', '^src/(?!cli/|sdk/)', '^src/sdk/', 'server helpers come from Pure (src/core, src/crypto); the SDK is a client, used by the command line alone'],
  ['follow-feeds-the-chain', '^src/follow/', '^src/chain/(?!core/)', 'a full node feeds the chain, it does not reach into it (its core is open to it)'],
].map(([name, from, to, comment]) => ({ name: `never:${name}`, comment, severity: 'error', from: { path: from }, to: { path: to } }));

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'no import circles: each folder is a layer, each file a step inside it',
      severity: 'error',
      from: { path: '^(src|workers)/' },
      to: { circular: true },
    },
    {
      name: 'worker-is-not-a-library',
      comment: 'a worker entry is not a library: name it by path (pool workerFile), import what it runs from src/',
      severity: 'error',
      from: { path: '^(src|workers)/' },
      to: { path: '^workers/' },
    },
    {
      name: 'src-stays-in-src',
      comment: 'the node does not import tests, benches or scripts',
      severity: 'error',
      from: { path: '^(src|workers)/' },
      to: { path: '^(test|bench|scripts)/' },
    },
    {
      name: 'browser-safe',
      comment: 'code a browser loads (the SDK, the proofs, the browser verifier, the explorer page, every browser-safe door) imports no Node built-in',
      severity: 'error',
      from: { path: ['^src/(browser|proofs|sdk)/', '^src/chain/api/web/app/', '^src/[^/]+/browser-safe\\.ts$'] },
      to: { dependencyTypes: ['core'] },
    },
    ...neverRules,
    ...floorRules,
    ...doorRules,
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|build|node_modules)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
