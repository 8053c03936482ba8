import { describe, expect, it } from 'vitest';
import { certManagerStates } from '../testing/ecosystem/cert-manager.ts';
import { compactLine } from './object-line.ts';

describe('compactLine', () => {
  const [issuer, , healthy, , failed] = certManagerStates('shop', 'eco').map((f) => f.object);

  it('says what decided the health of what is not healthy, as the object page does', () => {
    const line = compactLine(failed ?? {}, Date.now());
    expect(line).toMatch(
      /^Certificate shop\/eco-cert-failed: \(unhealthy: Issuing Failed — The certificate request/,
    );
  });

  it('keeps a healthy object’s line short', () => {
    expect(compactLine(healthy ?? {}, Date.now())).toMatch(/\(healthy, (\d+s|<invalid>|\?)\)$/);
    expect(compactLine(issuer ?? {}, Date.now())).toContain('(healthy, ');
  });
});
