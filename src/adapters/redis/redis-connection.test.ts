import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { TEST_REDIS_URL } from '../../../test/support/redis-test-keys.js';
import { connectRedis, redisTarget } from './redis-connection.js';
import { RedisUnavailableError } from './redis-unavailable-error.js';

const PASSWORD = 'pa55-word-never-shown';

interface FakeRedis {
  readonly port: number;
  /** Connections accepted so far. */
  connections(): number;
  /** Connections still open on the server's side. */
  open(): number;
  stop(): Promise<void>;
}

/** A TCP server on a free loopback port that answers every command with `reply`, or never when it is undefined. */
async function fakeRedis(reply: string | undefined): Promise<FakeRedis> {
  let connections = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    connections += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    socket.on('data', () => (reply === undefined ? undefined : socket.write(reply)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    connections: () => connections,
    open: () => sockets.size,
    stop: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

async function closedPort(): Promise<number> {
  const fake = await fakeRedis(undefined);
  await fake.stop();
  return fake.port;
}

async function failure(promise: Promise<unknown>): Promise<RedisUnavailableError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(RedisUnavailableError);
  return error as RedisUnavailableError;
}

function expectNoPassword(error: RedisUnavailableError): void {
  expect(`${error.message} ${error.hint} ${JSON.stringify(error.toJSON())} ${error.target}`).not.toContain(PASSWORD);
}

describe('connectRedis', () => {
  const servers: FakeRedis[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((fake) => fake.stop()));
  });

  it('connects to a running Redis and answers commands', async () => {
    const client = await connectRedis(TEST_REDIS_URL);
    try {
      expect(await client.ping()).toBe('PONG');
    } finally {
      await client.quit();
    }
  });

  it('gives up on a refused port within its timeout, naming host:port and the fix, never the password', async () => {
    const port = await closedPort();
    const error = await failure(connectRedis(`redis://forge:${PASSWORD}@127.0.0.1:${port}/0`, { connectTimeoutMs: 800 }));

    expect(error).toMatchObject({ name: 'RedisUnavailableError', target: `127.0.0.1:${port}`, code: 'ECONNREFUSED' });
    expect(error.message).toBe(`Forge cannot reach Redis at 127.0.0.1:${port}: the connection was refused (nothing listens there).`);
    expect(error.hint).toContain(`redis-server --port ${port}`);
    expect(error.hint).toContain('unset FORGE_REDIS_URL to run Forge in the embedded mode');
    expectNoPassword(error);
  });

  it('gives up on a server that accepts the connection but never answers, closes its socket, and stops trying', async () => {
    const silent = await fakeRedis(undefined);
    servers.push(silent);

    const error = await failure(connectRedis(`redis://:${PASSWORD}@127.0.0.1:${silent.port}`, { connectTimeoutMs: 500 }));

    expect(error.message).toBe(`Forge cannot reach Redis at 127.0.0.1:${silent.port}: no answer within 0.5 s.`);
    expectNoPassword(error);
    const attempts = silent.connections();
    expect(attempts).toBeGreaterThanOrEqual(1);
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(silent.connections()).toBe(attempts);
    expect(silent.open()).toBe(0);
  });

  it('says the credentials were refused when Redis answers WRONGPASS, without repeating them', async () => {
    const strict = await fakeRedis('-WRONGPASS invalid username-password pair or user is disabled.\r\n');
    servers.push(strict);

    const error = await failure(connectRedis(`redis://forge:${PASSWORD}@127.0.0.1:${strict.port}`, { connectTimeoutMs: 800 }));

    expect(error).toMatchObject({ code: 'WRONGPASS', message: `Forge cannot reach Redis at 127.0.0.1:${strict.port}: it refused Forge's credentials (WRONGPASS).` });
    expect(error.hint).toContain('Check the user name and password in FORGE_REDIS_URL');
    expectNoPassword(error);
  });

  it('refuses a URL that is not redis:// or rediss://, without echoing it', async () => {
    const url = `http://forge:${PASSWORD}@example.com`;
    const error: unknown = await connectRedis(url).then(
      () => undefined,
      (caught: unknown) => caught,
    );

    expect(error).toMatchObject({ name: 'ConfigurationError', variable: 'FORGE_REDIS_URL' });
    expect(JSON.stringify(error) + String(error)).not.toContain(PASSWORD);
    expect(() => redisTarget('not a url')).toThrow(expect.objectContaining({ name: 'ConfigurationError' }));
  });

  it('names the host and port of a URL, the default port when absent', () => {
    expect(redisTarget(`redis://user:${PASSWORD}@cache.internal/2`)).toBe('cache.internal:6379');
    expect(redisTarget('rediss://[::1]:6380')).toBe('[::1]:6380');
  });
});
