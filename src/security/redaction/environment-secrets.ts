/** The variables Forge and its vendors read keys from, secret whatever their values look like. */
export const SECRET_VARIABLES = [
  'OPENAI_API_KEY',
  'ANTHROPIC_API_KEY',
  'OPENROUTER_API_KEY',
  'FORGE_OPENAI_COMPATIBLE_API_KEY',
  'TAVILY_API_KEY',
  'BRAVE_API_KEY',
  'FORGE_SECRET_KEY',
  'FORGE_MCP_TOKEN',
] as const;

/** Other variables whose names say they hold a secret (`GITHUB_TOKEN`, `AWS_SECRET_ACCESS_KEY`, `PGPASSWORD`, …). */
const secretName = /(?:^|_)(?:API_?KEY|SECRET|SECRET_KEY|SECRET_ACCESS_KEY|ACCESS_KEY|PRIVATE_KEY|TOKEN|AUTH_TOKEN|PASSWORD|PASSWD|CREDENTIALS?)$|PASSWORD$/i;

/**
 * The secret values of an environment: every variable listed in `SECRET_VARIABLES` or named like a
 * secret, and the password of every URL-valued variable (`FORGE_DATABASE_URL=postgres://u:pw@…`,
 * `FORGE_REDIS_URL`, a base URL with credentials).
 */
export function secretsFromEnvironment(env: Readonly<Record<string, string | undefined>>): string[] {
  const secrets: string[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || value.trim() === '') continue;
    if ((SECRET_VARIABLES as readonly string[]).includes(name) || secretName.test(name)) secrets.push(value);
    const password = urlPassword(value);
    if (password !== undefined) secrets.push(password);
  }
  return secrets;
}

function urlPassword(value: string): string | undefined {
  if (!/^[a-z][a-z0-9+.-]*:\/\/[^/]*@/i.test(value)) return undefined;
  try {
    const password = decodeURIComponent(new URL(value).password);
    return password === '' ? undefined : password;
  } catch {
    return undefined;
  }
}
