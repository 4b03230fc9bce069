/**
 * `import ... from 'svc'`: run a node from a program. The node (startNode with a config
 * parsed from flags and SVC_* variables, exactly as `svc node` does) and its types. The
 * order book client, the proofs (verifiers and their client) and the VDF have their own
 * entries: 'svc/sdk' and 'svc/proofs' (browser-safe) and
 * 'svc/vdf'; the standalone browser verifier is 'svc/browser'.
 *
 *   import { startNode, nodeConfig } from 'svc';
 *   const node = await startNode(nodeConfig(['--grpc-addr', '127.0.0.1:0']));
 *   console.log(node.addresses.grpc); await node.close();
 */
export { startNode, type NodeHandle, type StartNodeOptions } from './node/index.js';
export { nodeConfig, parseNodeConfig, helpText, type NodeConfig, type ParseOutcome } from './config/index.js';
