import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { createSchema, dropSchema, freshSchemaName, postgresTestUrl } from './support/postgres-test-schema.js';
import { redisTestKeys, TEST_REDIS_URL } from './support/redis-test-keys.js';
import { scratchUserHome } from './support/built-cli.js';

const root = fileURLToPath(new URL('..', import.meta.url));

interface ComposeService {
  readonly image?: string;
  readonly build?: string;
  readonly command?: readonly string[];
  readonly environment?: Record<string, string>;
  readonly ports?: readonly string[];
  readonly depends_on?: Record<string, { condition: string }>;
  readonly healthcheck?: { test: readonly string[]; interval: string; retries: number };
  readonly deploy?: { replicas: number };
  readonly stop_grace_period?: string;
}

/** The Dockerfile's instructions of the final stage, by name (last one wins, as Docker reads them). */
function finalStage(dockerfile: string): Map<string, string> {
  const joined = dockerfile.replace(/\\\n\s*/g, ' ');
  const stages = joined.split(/^FROM /m);
  const instructions = new Map<string, string>();
  for (const line of `FROM ${stages.at(-1)}`.split('\n')) {
    const match = /^([A-Z]+)\s+(.*)$/.exec(line.trim());
    if (match !== null) instructions.set(match[1]!, match[2]!);
  }
  return instructions;
}

/** `${NAME:?message}` and `${NAME:-default}` of compose, resolved against `values` (a missing required value throws, as compose does). */
function interpolate(value: string, values: Record<string, string>): string {
  return value.replace(/\$\{([A-Z_]+)(?::([?-])([^}]*))?\}/g, (_whole, name: string, kind: string | undefined, fallback: string | undefined) => {
    const given = values[name];
    if (given !== undefined && given !== '') return given;
    if (kind === '?') throw new Error(`compose refuses to start without ${name}: ${fallback ?? ''}`);
    return fallback ?? '';
  });
}

interface Started {
  readonly child: ChildProcess;
  readonly output: () => string;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Runs a command as a plain process and resolves once its stdout matches `ready` (bounded). */
async function startProcess(command: readonly string[], env: Record<string, string>, ready: RegExp): Promise<Started & { match: RegExpExecArray }> {
  const child = spawn(command[0]!, command.slice(1), { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const match = await new Promise<RegExpExecArray>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${command.join(' ')} was not ready within 30 s:\n${output}`)), 30_000);
    const look = (chunk: Buffer) => {
      output += chunk.toString();
      const found = ready.exec(output);
      if (found !== null) {
        clearTimeout(timer);
        resolve(found);
      }
    };
    child.stdout!.on('data', look);
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    void exited.then(({ code, signal }) => reject(new Error(`${command.join(' ')} exited (${code ?? signal}) before it was ready:\n${output}`)));
  });
  return { child, output: () => output, exited, match };
}

describe('the deployment artifacts: compose.yaml and the Dockerfile', () => {
  let compose: { services: Record<string, ComposeService> };
  let dockerfile: Map<string, string>;

  beforeAll(async () => {
    compose = parse(await readFile(path.join(root, 'compose.yaml'), 'utf8'), { merge: true }) as typeof compose;
    dockerfile = finalStage(await readFile(path.join(root, 'Dockerfile'), 'utf8'));
  });

  it('runs a server, workers, PostgreSQL and Redis, each with a health check, the Forge services only once their stores are healthy', () => {
    const { services } = compose;
    expect(Object.keys(services).sort()).toEqual(['postgres', 'redis', 'server', 'worker']);
    for (const [name, service] of Object.entries(services)) {
      expect(service.healthcheck?.test.length, `${name}'s health check`).toBeGreaterThan(1);
      expect(service.healthcheck?.retries, `${name}'s health check retries`).toBeGreaterThan(0);
    }
    expect(services['postgres']!.healthcheck!.test.join(' ')).toContain('pg_isready');
    expect(services['redis']!.healthcheck!.test.join(' ')).toContain('redis-cli ping');
    expect(services['redis']!.command).toContain('--requirepass');
    expect(services['redis']!.environment?.['REDISCLI_AUTH']).toMatch(/^\$\{FORGE_REDIS_PASSWORD:\?/);
    for (const name of ['server', 'worker']) {
      const service = services[name]!;
      expect(service.build, `${name} is built from this Dockerfile`).toBe('.');
      expect(service.depends_on).toEqual({ postgres: { condition: 'service_healthy' }, redis: { condition: 'service_healthy' } });
      expect(service.environment?.['FORGE_DATABASE_URL'], `${name}'s store`).toMatch(/^postgres:\/\/forge:forge@postgres:5432\/forge$/);
      // Beyond loopback Forge refuses a Redis without a password: compose's has one, required.
      expect(service.environment?.['FORGE_REDIS_URL'], `${name}'s Redis`).toBe('redis://:${FORGE_REDIS_PASSWORD:?set FORGE_REDIS_PASSWORD to letters and digits (openssl rand -hex 24)}@redis:6379');
      expect(service.environment?.['FORGE_SECRET_KEY'], `${name} shares the sealing key`).toMatch(/^\$\{FORGE_SECRET_KEY:\?/);
    }
    expect(services['server']!.command).toEqual(['node', 'bin/forge.js', 'serve']);
    expect(services['server']!.ports).toEqual(['7700:7700']);
    expect(services['server']!.environment?.['FORGE_ADMIN_PASSWORD']).toMatch(/^\$\{FORGE_ADMIN_PASSWORD:\?/);
    expect(services['server']!.healthcheck!.test.join(' ')).toContain('http://127.0.0.1:7700/health');
    expect(services['server']!.healthcheck!.test.join(' ')).not.toContain('FORGE_ADMIN_PASSWORD');
    expect(services['worker']!.command).toEqual(['node', 'bin/forge.js', 'worker']);
    expect(services['worker']!.deploy?.replicas).toBe(2);
    expect(services['worker']!.healthcheck!.test.join(' ')).toContain(`http://127.0.0.1:${services['worker']!.environment!['FORGE_WORKER_HEALTH_PORT']}/health`);
    // Draining finishes the runs in progress: the worker gets longer than the server to stop.
    expect(services['worker']!.stop_grace_period).toBe('5m');
  });

  it('builds an image whose start command is the server, with a health check and the data folder as a volume', () => {
    expect(JSON.parse(dockerfile.get('CMD')!)).toEqual(['node', 'bin/forge.js', 'serve']);
    expect(dockerfile.get('HEALTHCHECK')).toContain('/health');
    expect(dockerfile.get('USER')).toBe('node');
    expect(dockerfile.get('VOLUME')).toBe('/data');
    expect(dockerfile.get('ENV')).toContain('FORGE_HOME=/data');
  });

  describe('the start commands, run as plain processes against this machine’s PostgreSQL and Redis', () => {
    const schema = freshSchemaName();
    const keys = redisTestKeys('deploy');
    const homes: string[] = [];
    let values: Record<string, string>;

    beforeAll(async () => {
      await createSchema(schema);
      values = { FORGE_SECRET_KEY: 'c'.repeat(64), FORGE_ADMIN_PASSWORD: 'a-long-enough-admin-password', FORGE_REDIS_PASSWORD: 'redis-password-0123' };
    });
    afterAll(async () => {
      await keys.cleanup();
      await keys.close();
      await dropSchema(schema);
      for (const home of homes) await rm(home, { recursive: true, force: true });
    });

    /** A service's environment as compose would give it, its hosts mapped to this machine and its listeners to 127.0.0.1:0. */
    async function environmentOf(service: ComposeService): Promise<Record<string, string>> {
      const home = await mkdtemp(path.join(tmpdir(), 'forge-deploy-'));
      homes.push(home);
      const resolved = Object.fromEntries(Object.entries(service.environment ?? {}).map(([name, value]) => [name, interpolate(String(value), values)]));
      return {
        PATH: process.env['PATH'] ?? '',
        HOME: scratchUserHome(),
        ...Object.fromEntries(dockerfile.get('ENV')!.split(/\s+/).map((pair) => pair.split('=') as [string, string])),
        ...resolved,
        FORGE_HOME: home,
        FORGE_DATABASE_URL: postgresTestUrl(schema),
        FORGE_REDIS_URL: TEST_REDIS_URL,
        FORGE_REDIS_PREFIX: keys.prefix(),
        // Tests listen on loopback, on ports the system picks.
        FORGE_SERVE_HOST: '127.0.0.1',
        FORGE_SERVE_PORT: '0',
        FORGE_WORKER_HEALTH_PORT: '0',
      };
    }

    it('refuses to start without the secrets compose requires', () => {
      expect(() => interpolate(String(compose.services['server']!.environment!['FORGE_SECRET_KEY']), {})).toThrow(/FORGE_SECRET_KEY/);
      expect(() => interpolate(String(compose.services['worker']!.environment!['FORGE_REDIS_URL']), {})).toThrow(/FORGE_REDIS_PASSWORD/);
    });

    it("starts the server and a worker, answers their health checks, and both stop cleanly on SIGTERM", async () => {
      const server = await startProcess(compose.services['server']!.command!, await environmentOf(compose.services['server']!), /Forge API listening on (http:\/\/127\.0\.0\.1:\d+)\/api\/v1/);
      const worker = await startProcess(compose.services['worker']!.command!, await environmentOf(compose.services['worker']!), /health at (http:\/\/127\.0\.0\.1:\d+\/health)/);
      try {
        const origin = server.match[1]!;
        const token = { authorization: `Bearer ${values['FORGE_ADMIN_PASSWORD']}` };
        // The password mode (FORGE_ADMIN_PASSWORD is set) guards every path but /health, which compose's check calls without the token.
        expect((await fetch(`${origin}/api/v1/runs`)).status).toBe(401);
        const health = await fetch(`${origin}/health`);
        expect(health.status).toBe(200);
        expect(await health.json()).toMatchObject({ status: 'ok' });
        const runs = await fetch(`${origin}/api/v1/runs`, { headers: token });
        expect(runs.status).toBe(200);
        const workerHealth = await fetch(worker.match[1]!);
        expect(workerHealth.status).toBe(200);
        expect(await workerHealth.json()).toEqual({ status: 'ok', concurrency: 50, active: 0, done: 0, failed: 0 });
      } finally {
        server.child.kill('SIGTERM');
        worker.child.kill('SIGTERM');
      }
      expect(await server.exited).toEqual({ code: 0, signal: null });
      expect(await worker.exited).toEqual({ code: 0, signal: null });
      expect(worker.output()).toContain('Forge worker stopped: 0 jobs done, 0 failed');
    }, 90_000);
  });
});
