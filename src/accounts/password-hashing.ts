import { z } from 'zod';

/** A password a person may choose: long enough to resist guessing, short enough to hash cheaply. */
export const passwordSchema = z
  .string()
  .min(10, 'A password needs at least 10 characters.')
  .max(256, 'A password has at most 256 characters.');

// OWASP's argon2id baseline (19 MiB, 2 passes, 1 lane): tens of milliseconds a hash on a server core.
const argon2Options = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** The argon2id hash of `password`, as a PHC string (`$argon2id$v=19$m=…`) with its own random salt. */
export async function hashPassword(password: string): Promise<string> {
  const { hash } = await import('@node-rs/argon2');
  // 2 is Algorithm.Argon2id, a const enum the package's typings declare and isolated modules cannot read.
  return hash(password, { ...argon2Options, algorithm: 2 });
}

let dummyHash: Promise<string> | undefined;

/**
 * Whether `password` matches `passwordHash`. With no hash (an unknown email) a dummy hash is checked,
 * so a sign-in takes as long for an unknown account as for a wrong password.
 */
export async function verifyPassword(passwordHash: string | undefined, password: string): Promise<boolean> {
  const { verify } = await import('@node-rs/argon2');
  const target = passwordHash ?? (await (dummyHash ??= hashPassword('forge-dummy-password-for-timing')));
  try {
    const matches = await verify(target, password);
    return passwordHash !== undefined && matches;
  } catch {
    // A stored hash that does not parse matches nothing.
    return false;
  }
}
