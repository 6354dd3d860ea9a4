import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ApprovalGrant, ApprovalRecord, NewApprovalGrant } from '../../core/index.js';
import type { SecretBox } from '../../adapters/store/index.js';

/** What an answer's signature covers: everything the run acts on. */
type SealedAnswer = Pick<ApprovalRecord, 'runId' | 'callId' | 'tool' | 'inputDigest' | 'expiresAt'> & { readonly status: 'approved' | 'denied'; readonly answeredAt: string };

type SealedGrant = Pick<ApprovalGrant, 'id' | 'scope' | 'tool' | 'runId' | 'callId' | 'createdAt' | 'grantedBy'>;

/** Whether a signature verifies, and if not, why (a reader is told which). */
export type SealCheck = 'valid' | 'missing' | 'other-key' | 'invalid';

/**
 * Signs approval answers and "approve always" grants with HMAC-SHA256 under a key derived from the
 * installation's secret key (FORGE_SECRET_KEY, or FORGE_HOME/secret.key), and checks them before a run
 * acts on one. A signature is `<key id>.<hmac>`: a row written into the database by anything but
 * Forge's answer path, or changed afterwards (another call, another input, approved instead of denied,
 * a later expiry), does not verify, and neither does one made under another key (after a rotation).
 */
export class ApprovalSealer {
  private derived: { readonly keyId: string; readonly key: Buffer } | undefined;

  constructor(private readonly box: SecretBox) {}

  sealAnswer(answer: SealedAnswer): string {
    return this.seal(['answer', answer.runId, answer.callId, answer.tool, answer.inputDigest, answer.status, answer.answeredAt, answer.expiresAt]);
  }

  checkAnswer(record: ApprovalRecord): SealCheck {
    if (record.status !== 'approved' && record.status !== 'denied') return 'invalid';
    if (record.answeredAt === null) return 'missing';
    return this.check(record.seal, ['answer', record.runId, record.callId, record.tool, record.inputDigest, record.status, record.answeredAt, record.expiresAt]);
  }

  sealGrant(grant: Omit<NewApprovalGrant, 'seal'>): string {
    return this.seal(grantFields(grant));
  }

  checkGrant(grant: ApprovalGrant): SealCheck {
    return this.check(grant.seal, grantFields(grant));
  }

  private seal(fields: readonly (string | null)[]): string {
    return `${this.box.keyId()}.${this.mac(fields).toString('base64url')}`;
  }

  private check(seal: string | null, fields: readonly (string | null)[]): SealCheck {
    if (seal === null || seal === '') return 'missing';
    const [keyId, mac, extra] = seal.split('.');
    if (keyId === undefined || mac === undefined || extra !== undefined) return 'invalid';
    if (keyId !== this.box.keyId()) return 'other-key';
    const given = Buffer.from(mac, 'base64url');
    const expected = this.mac(fields);
    return given.length === expected.length && timingSafeEqual(given, expected) ? 'valid' : 'invalid';
  }

  private mac(fields: readonly (string | null)[]): Buffer {
    const keyId = this.box.keyId();
    if (this.derived?.keyId !== keyId) this.derived = { keyId, key: this.box.derive('approvals v1') };
    return createHmac('sha256', this.derived.key).update(JSON.stringify(fields)).digest();
  }
}

function grantFields(grant: SealedGrant): (string | null)[] {
  return ['grant', grant.id, grant.scope, grant.tool, grant.runId, grant.callId, grant.grantedBy, grant.createdAt];
}

/** A reader's words for a signature that did not verify. */
export function describeSealCheck(check: Exclude<SealCheck, 'valid'>): string {
  switch (check) {
    case 'missing':
      return 'it carries no signature (it was not given through Forge)';
    case 'other-key':
      return 'it was signed under another secret key (the key was rotated, or it was not given here)';
    case 'invalid':
      return 'its signature does not match it (it was forged or changed after it was given)';
  }
}
