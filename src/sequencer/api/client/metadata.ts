/**
 * StreamTicks: the request metadata key a full node (`svc node --follow`) sends so that its
 * stream is not held to the readers' pace when it connects from a loopback address
 * (docs/api.md "Stream backpressure policy"). The client sends it and the server reads it,
 * so it stands here, below both.
 */
export const FOLLOWER_METADATA = 'svc-follower';
