import { execFile } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface CertPair {
  cert: string;
  key: string;
}

export interface ClusterPki {
  dir: string;
  ca: CertPair;
  apiserver: CertPair;
  admin: CertPair;
  restricted: CertPair;
  serviceAccountKey: string;
  serviceAccountPub: string;
}

/** Names of the client identities the local control plane trusts. */
export const identities = {
  admin: { user: 'binnacle-admin', groups: ['system:masters'] },
  restricted: { user: 'binnacle-restricted', groups: [] as string[] },
} as const;

const days = '3650';
const curve = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];

async function openssl(args: string[]): Promise<void> {
  await run('openssl', args).catch((error: { stderr?: string; message: string }) => {
    throw new Error(`openssl ${args[0]} failed: ${error.stderr?.trim() || error.message}`);
  });
}

function subject(user: string, groups: readonly string[]): string {
  return `${groups.map((group) => `/O=${group}`).join('')}/CN=${user}`;
}

async function signed(dir: string, name: string, ca: CertPair, subj: string, ext: string): Promise<CertPair> {
  const pair = { cert: join(dir, `${name}.crt`), key: join(dir, `${name}.key`) };
  const csr = join(dir, `${name}.csr`);
  const extFile = join(dir, `${name}.ext`);
  await writeFile(extFile, ext);
  await openssl(['req', ...curve, '-keyout', pair.key, '-out', csr, '-subj', subj]);
  await openssl([
    'x509',
    '-req',
    '-in',
    csr,
    '-CA',
    ca.cert,
    '-CAkey',
    ca.key,
    '-CAcreateserial',
    '-days',
    days,
    '-extfile',
    extFile,
    '-out',
    pair.cert,
  ]);
  return pair;
}

/** Generates a fresh CA, the API server's serving certificate, client certificates and the service-account key. */
export async function generatePki(dir: string): Promise<ClusterPki> {
  await mkdir(dir, { recursive: true });
  const ca = { cert: join(dir, 'ca.crt'), key: join(dir, 'ca.key') };
  await openssl([
    'req',
    '-x509',
    ...curve,
    '-keyout',
    ca.key,
    '-out',
    ca.cert,
    '-days',
    days,
    '-subj',
    '/CN=binnacle-local-ca',
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  ]);
  const sans = [
    'IP:127.0.0.1',
    'IP:10.96.0.1',
    'DNS:localhost',
    'DNS:kubernetes',
    'DNS:kubernetes.default',
    'DNS:kubernetes.default.svc',
    'DNS:kubernetes.default.svc.cluster.local',
  ];
  const serverExt = `keyUsage=critical,digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth\nsubjectAltName=${sans.join(',')}\n`;
  const clientExt = 'keyUsage=critical,digitalSignature,keyEncipherment\nextendedKeyUsage=clientAuth\n';
  const apiserver = await signed(dir, 'apiserver', ca, '/CN=kube-apiserver', serverExt);
  const client = (name: keyof typeof identities) =>
    signed(dir, name, ca, subject(identities[name].user, identities[name].groups), clientExt);
  const admin = await client('admin');
  const restricted = await client('restricted');
  const serviceAccountKey = join(dir, 'sa.key');
  const serviceAccountPub = join(dir, 'sa.pub');
  await openssl([
    'genpkey',
    '-algorithm',
    'EC',
    '-pkeyopt',
    'ec_paramgen_curve:P-256',
    '-out',
    serviceAccountKey,
  ]);
  await openssl(['pkey', '-in', serviceAccountKey, '-pubout', '-out', serviceAccountPub]);
  return { dir, ca, apiserver, admin, restricted, serviceAccountKey, serviceAccountPub };
}

/** A kubeconfig with the CA and client certificate embedded, so it works from any directory. */
export async function writeKubeconfig(
  path: string,
  server: string,
  ca: string,
  client: CertPair,
  user: string,
): Promise<void> {
  const b64 = async (file: string) => (await readFile(file)).toString('base64');
  const text = [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    '- name: binnacle-local',
    '  cluster:',
    `    server: ${server}`,
    `    certificate-authority-data: ${await b64(ca)}`,
    'users:',
    `- name: ${user}`,
    '  user:',
    `    client-certificate-data: ${await b64(client.cert)}`,
    `    client-key-data: ${await b64(client.key)}`,
    'contexts:',
    `- name: binnacle-local-${user}`,
    '  context:',
    '    cluster: binnacle-local',
    `    user: ${user}`,
    `current-context: binnacle-local-${user}`,
    '',
  ].join('\n');
  await writeFile(path, text, { mode: 0o600 });
}
