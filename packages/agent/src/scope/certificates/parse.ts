import { createPrivateKey, type KeyObject, X509Certificate } from 'node:crypto';
import type { KubeObject } from '@binnacle/common';
import { daysLeft, type Obj, obj, type Severity, severityOf } from './severity.ts';

/** The only Secret type read: its `tls.crt` holds the certificate (chain), `tls.key` the private key. */
export const tlsSecretType = 'kubernetes.io/tls';

/** One decoded certificate. Names are one line (`O=Acme\, Inc., CN=web`: commas inside values are escaped). */
export interface CertificateInfo {
  subject: string;
  commonName: string | null;
  /**
   * Subject alternative names, each with its kind as a prefix: `DNS:web.example`, `IP:10.0.0.1` (IPv6 in full
   * form), `URI:spiffe://…`, `email:a@b.example`; rarer kinds keep the prefix Node prints (`DirName:…`).
   */
  sans: string[];
  issuer: string;
  /** Upper-case hex, as Node prints it. */
  serialNumber: string;
  /** ISO 8601. */
  notBefore: string;
  notAfter: string;
  /** Whole days left, rounded down; negative once expired. */
  daysLeft: number;
  isCA: boolean;
  /** Issued by itself: subject and issuer are the same and its own key verifies its signature. */
  selfSigned: boolean;
  /** SHA-256, colon-separated upper-case hex. */
  fingerprint256: string;
}

export interface ChainCheck {
  /** The leaf comes first and each certificate is issued by the next one (a single certificate is ordered). */
  ordered: boolean;
  /**
   * Following issuers from the leaf through `tls.crt`, in whatever order it lists them, ends at a self-signed
   * certificate or at one issued by a certificate in `ca.crt`. Order is `ordered`'s business, not this one's.
   */
  complete: boolean;
  /** What is wrong with the chain; never makes the Secret invalid (its severity stays the leaf's). */
  problems: string[];
}

export interface SecretCertificates {
  kind: 'Secret';
  namespace: string;
  name: string;
  type: string;
  /** The certificates of `tls.crt` in the order it lists them (those that parse). */
  certificates: CertificateInfo[];
  /** Index in `certificates` of the leaf (the one that issues no other, else the first); null when there is none. */
  leaf: number | null;
  /** The leaf's `notAfter` and `daysLeft`, repeated here to sort and show without digging. */
  notAfter: string | null;
  daysLeft: number | null;
  chain: ChainCheck;
  /** `invalid` exactly when `problems` is not empty; otherwise from the leaf's days left. */
  severity: Severity;
  /** Why the Secret cannot be used as it is: bad data, a key that does not fit, a certificate not yet valid. */
  problems: string[];
}

interface Parsed {
  x509: X509Certificate;
  info: CertificateInfo;
}

type Decoded = { text: string } | { problem: string } | undefined;

const base64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** A Secret data value as text; undefined when absent. Never quotes the value in a problem. */
function decode(data: Obj, field: string): Decoded {
  const value = data[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') return { problem: `${field} is not a string` };
  const compact = value.replace(/\s+/g, '');
  if (compact.length % 4 !== 0 || !base64.test(compact)) return { problem: `${field} is not valid base64` };
  return { text: Buffer.from(compact, 'base64').toString('latin1') };
}

/** How many certificates of `tls.crt` are read: chains are short, and checking who issues whom is quadratic. */
export const maxChainCertificates = 50;
/** How many certificates of `ca.crt` are read (a full CA bundle has some 150). */
export const maxCaCertificates = 500;

// A block's body stops at the next `-----`, so text with many BEGIN lines and no END costs linear time.
const pemBlock = /-----BEGIN ([A-Z0-9 ]{1,64})-----((?:[^-]|-(?!----))*)-----END \1-----/g;

/** The certificates of a PEM field; what does not parse is a problem (naming block labels, never contents). */
function readPem(
  text: string,
  field: string,
  limit: number,
  problems: string[],
  notes: string[],
): X509Certificate[] {
  const blocks = [...text.matchAll(pemBlock)].map((m) => ({ label: m[1] ?? '', pem: m[0] }));
  const certificates = blocks.filter((b) => b.label === 'CERTIFICATE');
  if (certificates.length === 0) {
    const labels = [...new Set(blocks.map((b) => b.label))];
    problems.push(
      labels.length > 0
        ? `${field} holds no CERTIFICATE PEM block (found ${labels.join(', ')})`
        : `${field} holds no PEM block`,
    );
    return [];
  }
  if (certificates.length > limit) {
    notes.push(`${field} holds ${certificates.length} certificates; only the first ${limit} are read`);
  }
  const parsed: X509Certificate[] = [];
  for (const [index, block] of certificates.slice(0, limit).entries()) {
    try {
      parsed.push(new X509Certificate(block.pem));
    } catch {
      problems.push(`${field}: PEM block ${index + 1} of ${certificates.length} is not a valid certificate`);
    }
  }
  return parsed;
}

/** Whether `child` names `parent` as its issuer and `parent`'s key verifies its signature. */
function issuedBy(child: X509Certificate, parent: X509Certificate): boolean {
  try {
    return child.checkIssued(parent) && child.verify(parent.publicKey);
  } catch {
    return false;
  }
}

function selfSigned(x509: X509Certificate): boolean {
  try {
    return x509.subject === x509.issuer && x509.verify(x509.publicKey);
  } catch {
    return false;
  }
}

const oneLine = (name: string) => name.split('\n').join(', ');

function commonName(subject: string): string | null {
  const line = subject
    .split('\n')
    .filter((l) => l.startsWith('CN='))
    .at(-1);
  return line === undefined ? null : line.slice(3).replace(/\\(.)/g, '$1');
}

const sanEntry = /([^:,]+):("(?:[^"\\]|\\.)*"|[^,]*)(?:, )?/g;

/** Node prints `DNS:a, IP Address:10.0.0.1`, quoting (as JSON) a value with a comma or quote in it. */
function sansOf(subjectAltName: string | undefined): string[] {
  if (!subjectAltName) return [];
  return [...subjectAltName.matchAll(sanEntry)].map((m) => {
    const kind = m[1] === 'IP Address' ? 'IP' : (m[1] ?? '');
    const raw = m[2] ?? '';
    let value = raw;
    if (raw.startsWith('"')) {
      try {
        value = String(JSON.parse(raw));
      } catch {
        // Keep the quoted text.
      }
    }
    return `${kind}:${value}`;
  });
}

function describe(x509: X509Certificate, now: number): CertificateInfo {
  return {
    subject: oneLine(x509.subject),
    commonName: commonName(x509.subject),
    sans: sansOf(x509.subjectAltName),
    issuer: oneLine(x509.issuer),
    serialNumber: x509.serialNumber,
    notBefore: x509.validFromDate.toISOString(),
    notAfter: x509.validToDate.toISOString(),
    daysLeft: daysLeft(x509.validToDate.getTime(), now),
    isCA: x509.ca,
    selfSigned: selfSigned(x509),
    fingerprint256: x509.fingerprint256,
  };
}

const label = (certs: Parsed[], index: number) => {
  const info = certs[index]?.info;
  return `certificate ${index + 1} (${info?.commonName ? `CN=${info.commonName}` : info?.subject || 'no subject'})`;
};

/** The first certificate that issues no other one in the bundle (a self-signed one issues itself only). */
function leafOf(certs: Parsed[]): number {
  const leaf = certs.findIndex(
    (parent, i) => !certs.some((child, j) => j !== i && issuedBy(child.x509, parent.x509)),
  );
  return Math.max(leaf, 0);
}

function checkChain(
  certs: Parsed[],
  leaf: number,
  anchors: X509Certificate[],
  problems: string[],
): ChainCheck {
  const ordered =
    leaf === 0 &&
    certs.every((c, i) => i === certs.length - 1 || issuedBy(c.x509, (certs[i + 1] as Parsed).x509));
  const path = [leaf];
  let complete = false;
  for (;;) {
    const { x509: current, info } = certs[path.at(-1) ?? leaf] as Parsed;
    if (info.selfSigned || anchors.some((anchor) => issuedBy(current, anchor))) {
      complete = true;
      break;
    }
    const next = certs.findIndex((c, i) => !path.includes(i) && issuedBy(current, c.x509));
    if (next < 0) {
      const where = anchors.length > 0 ? 'tls.crt or ca.crt' : 'tls.crt (and there is no ca.crt)';
      problems.push(`the issuer of ${label(certs, path.at(-1) ?? leaf)} (${info.issuer}) is not in ${where}`);
      break;
    }
    path.push(next);
  }
  if (path.some((index, position) => index !== position)) {
    problems.push('tls.crt is not in order: the leaf first, then the issuer of each certificate');
  }
  for (const index of certs.keys()) {
    if (!path.includes(index)) problems.push(`${label(certs, index)} is not part of the leaf's chain`);
  }
  for (const index of path.slice(1)) {
    const info = (certs[index] as Parsed).info;
    if (info.daysLeft < 0) problems.push(`${label(certs, index)} expired on ${info.notAfter}`);
  }
  return { ordered, complete, problems };
}

/** The private key must parse and fit the leaf. Messages name the field only: never any key material. */
function checkKey(data: Obj, leaf: X509Certificate, problems: string[]): void {
  const decoded = decode(data, 'tls.key');
  if (decoded === undefined) return;
  if ('problem' in decoded) {
    problems.push(decoded.problem);
    return;
  }
  if (decoded.text.trim() === '') return;
  let key: KeyObject;
  try {
    key = createPrivateKey(decoded.text);
  } catch {
    problems.push('tls.key does not parse as a private key');
    return;
  }
  let fits = false;
  try {
    fits = leaf.checkPrivateKey(key);
  } catch {
    // A key of another type than the certificate's: it does not fit.
  }
  if (!fits) problems.push('tls.key does not match the leaf certificate');
}

/** The certificates of `tls.crt`; what is wrong with it makes the Secret invalid. */
function readBundle(data: Obj, now: number, problems: string[], notes: string[]): Parsed[] {
  const crt = decode(data, 'tls.crt');
  if (crt === undefined) problems.push('tls.crt is missing');
  else if ('problem' in crt) problems.push(crt.problem);
  else if (crt.text.trim() === '') problems.push('tls.crt is empty');
  else {
    const certs = readPem(crt.text, 'tls.crt', maxChainCertificates, problems, notes);
    return certs.map((x509) => ({ x509, info: describe(x509, now) }));
  }
  return [];
}

/** The certificates of `ca.crt`, which may anchor the chain; what is wrong with it is a chain problem only. */
function readAnchors(data: Obj, notes: string[]): X509Certificate[] {
  const ca = decode(data, 'ca.crt');
  if (ca === undefined || ('text' in ca && ca.text.trim() === '')) return [];
  if ('problem' in ca) {
    notes.push(ca.problem);
    return [];
  }
  return readPem(ca.text, 'ca.crt', maxCaCertificates, notes, notes);
}

/** Reads a `kubernetes.io/tls` Secret: its certificates, their chain and how urgent it is. Never throws. */
export function parseTlsSecret(secret: KubeObject, now: number): SecretCertificates {
  const data = obj(secret.data);
  const problems: string[] = [];
  const chainProblems: string[] = [];
  const certs = readBundle(data, now, problems, chainProblems);
  const anchors = readAnchors(data, chainProblems);
  const leaf = certs.length > 0 ? leafOf(certs) : null;
  const leafCert = leaf === null ? undefined : certs[leaf];
  let chain: ChainCheck = { ordered: false, complete: false, problems: chainProblems };
  if (leaf !== null && leafCert) {
    chain = checkChain(certs, leaf, anchors, chainProblems);
    checkKey(data, leafCert.x509, problems);
  }
  for (const [index, cert] of certs.entries()) {
    if (Date.parse(cert.info.notBefore) > now) {
      problems.push(`${label(certs, index)} is not valid before ${cert.info.notBefore}`);
    }
  }
  return {
    kind: 'Secret',
    namespace: secret.metadata?.namespace ?? '',
    name: secret.metadata?.name ?? '',
    type: typeof secret.type === 'string' ? secret.type : '',
    certificates: certs.map((c) => c.info),
    leaf,
    notAfter: leafCert?.info.notAfter ?? null,
    daysLeft: leafCert?.info.daysLeft ?? null,
    chain,
    severity: problems.length > 0 || !leafCert ? 'invalid' : severityOf(leafCert.info.daysLeft),
    problems,
  };
}
