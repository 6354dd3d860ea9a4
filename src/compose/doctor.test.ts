import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runDoctor } from './doctor.js';

describe('runDoctor sandbox check', () => {
  it('names the fix when the sandbox does not start, and when it answers wrong', async () => {
    const home = await mkdtemp(path.join(tmpdir(), 'forge-doctor-'));
    try {
      const env = { HOME: home, FORGE_HOME: home };
      const broken = await runDoctor(env, home, { runSandbox: () => Promise.reject(new Error('worker exited')) });
      expect(broken.find((check) => check.check === 'sandbox')).toEqual({ check: 'sandbox', status: 'failed', detail: 'the sandbox did not start: worker exited', fix: expect.stringContaining('reinstall dependencies (npm install)') });
      const wrong = await runDoctor(env, home, { runSandbox: () => Promise.resolve(41) });
      expect(wrong.find((check) => check.check === 'sandbox')).toMatchObject({ status: 'failed', detail: 'the probe module returned 41 instead of 42' });
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });
});
