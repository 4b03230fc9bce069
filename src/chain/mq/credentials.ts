/**
 * Credentials in `--mq-url`: nats.js does not log in with the user information of a
 * server URL (a server started with --user/--pass answers "Authorization Violation"), so
 * they are taken out of the URLs and passed as client options:
 *
 *   nats://user:password@host:port  -> { user, pass }
 *   nats://token@host:port          -> { token }   (a user part alone is a token, as in nats-server)
 *
 * Percent-escapes are decoded (a password with '@' or ':' is written %40, %3A). Every
 * server of a comma-separated list that carries credentials must carry the same ones: the
 * client has one set for all of them.
 */

export interface NatsServerOptions {
  servers: string[]; // without credentials
  user?: string;
  pass?: string;
  token?: string;
}

const USERINFO = /^([a-z]+:\/\/)([^/@]*)@/i;

/** The servers of `url` without credentials, and the credentials as client options. */
export function natsServerOptions(url: string): NatsServerOptions {
  const servers: string[] = [];
  let userinfo: string | undefined;
  for (const raw of url.split(',')) {
    const server = raw.trim();
    const m = USERINFO.exec(server);
    if (!m) {
      servers.push(server);
      continue;
    }
    if (userinfo !== undefined && userinfo !== m[2])
      throw new Error('--mq-url: every server that carries credentials must carry the same ones');
    userinfo = m[2]!;
    servers.push(m[1]! + server.slice(m[0].length));
  }
  if (userinfo === undefined || userinfo === '') return { servers };
  const colon = userinfo.indexOf(':');
  if (colon < 0) return { servers, token: decodeURIComponent(userinfo) };
  return {
    servers,
    user: decodeURIComponent(userinfo.slice(0, colon)),
    pass: decodeURIComponent(userinfo.slice(colon + 1)),
  };
}
