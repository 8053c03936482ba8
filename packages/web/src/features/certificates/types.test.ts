import { describe, expect, it } from 'vitest';
import {
  type CertificateItem,
  commonNameOf,
  daysText,
  itemMatches,
  namesOf,
  type SecretItem,
} from './types.ts';

const secret: SecretItem = {
  kind: 'Secret',
  namespace: 'demo-ops',
  name: 'legacy-api-tls',
  type: 'kubernetes.io/tls',
  certificates: [
    {
      subject: 'CN=legacy.demo.binnacle.local',
      commonName: 'legacy.demo.binnacle.local',
      sans: ['DNS:legacy.demo.binnacle.local', 'DNS:api.demo.binnacle.local', 'IP:10.0.0.7'],
      issuer: 'CN=Demo CA,O=Binnacle',
      serialNumber: '01',
      notBefore: '2026-11-25T21:02:11.000Z',
      notAfter: '2026-12-05T21:02:11.000Z',
      daysLeft: 9,
      isCA: false,
      selfSigned: false,
      fingerprint256: 'AA',
    },
  ],
  leaf: 0,
  notAfter: '2026-12-05T21:02:11.000Z',
  daysLeft: 9,
  chain: { ordered: true, complete: false, problems: [] },
  severity: 'warning',
  problems: [],
  managedBy: null,
};

describe('daysText', () => {
  it('says days left, today, or how long ago it expired', () => {
    expect(daysText(9)).toBe('9 days');
    expect(daysText(1)).toBe('1 day');
    expect(daysText(0)).toBe('today');
    expect(daysText(-1)).toBe('expired 1 day ago');
    expect(daysText(-12)).toBe('expired 12 days ago');
    expect(daysText(null)).toBe('—');
  });
});

describe('names', () => {
  it("reads a distinguished name's CN", () => {
    expect(commonNameOf('CN=Demo CA,O=Binnacle')).toBe('Demo CA');
    expect(commonNameOf('O=Binnacle, CN=inner')).toBe('inner');
    expect(commonNameOf('O=No common name')).toBe('O=No common name');
  });

  it("gives a Secret's leaf names (DNS bare, other kinds prefixed) and a Certificate's DNS names", () => {
    expect(namesOf(secret)).toEqual({
      main: 'legacy.demo.binnacle.local',
      sans: ['legacy.demo.binnacle.local', 'api.demo.binnacle.local', 'IP:10.0.0.7'],
    });
    const certificate = { kind: 'Certificate', dnsNames: ['a.example', 'b.example'] } as CertificateItem;
    expect(namesOf(certificate)).toEqual({ main: 'a.example', sans: ['a.example', 'b.example'] });
    expect(namesOf({ ...secret, leaf: null, certificates: [] })).toEqual({ main: undefined, sans: [] });
  });

  it('filters on namespace/name, the names and the issuer', () => {
    expect(itemMatches(secret, 'demo-ops/legacy')).toBe(true);
    expect(itemMatches(secret, 'API.demo')).toBe(true);
    expect(itemMatches(secret, 'demo ca')).toBe(true);
    expect(itemMatches(secret, 'storefront')).toBe(false);
  });
});
