import type { KubeObject } from '@binnacle/common';
import type { GraphBuilder } from '../graph-builder.ts';
import { list, ns, obj } from '../node-data.ts';

const group = 'cert-manager.io';
const shimAnnotations = ['cert-manager.io/cluster-issuer', 'cert-manager.io/issuer'];

/** The Secrets an Ingress (spec.tls) or Gateway (listeners' certificateRefs) serves from. */
const servedSecrets = (o: KubeObject): string[] =>
  o.kind === 'Ingress'
    ? list(o.spec?.tls).map((tls) => String(tls.secretName))
    : list(o.spec?.listeners).flatMap((l) => list(obj(l.tls).certificateRefs).map((ref) => String(ref.name)));

/**
 * A Certificate uses its Issuer or ClusterIssuer (flagged when missing) and manages the Secret it writes (drawn
 * when the caller may read Secrets); CertificateRequests, Orders and Challenges hang under what owns them. An Ingress or Gateway
 * annotated for cert-manager manages the Certificates of the Secrets it serves.
 */
export function addCertManager(graph: GraphBuilder): void {
  const certificates = graph.ofKind(group, 'Certificate');
  for (const certificate of certificates) {
    const id = graph.addNode(certificate);
    const issuer = obj(certificate.spec?.issuerRef);
    // An external issuer (another group) is its project's kind, not read here.
    if (typeof issuer.name === 'string' && (issuer.group ?? group) === group) {
      const kind = issuer.kind === 'ClusterIssuer' ? 'ClusterIssuer' : 'Issuer';
      const namespace = kind === 'Issuer' ? ns(certificate) : undefined;
      graph.reference(id, { group, kind, namespace, name: issuer.name }, 'uses');
    }
    const secretName = certificate.spec?.secretName;
    const secret =
      typeof secretName === 'string'
        ? graph.find({ group: '', kind: 'Secret', namespace: ns(certificate), name: secretName })
        : undefined;
    if (secret && graph.drawsCertificateSecrets) graph.addEdge(id, graph.addNode(secret), 'manages');
  }
  for (const request of graph.ofKind(group, 'CertificateRequest')) {
    const name = request.metadata?.annotations?.['cert-manager.io/certificate-name'];
    const certificate = name && graph.find({ group, kind: 'Certificate', namespace: ns(request), name });
    if (certificate) graph.addEdge(graph.addNode(certificate), graph.addNode(request), 'manages');
  }
  for (const front of [...graph.of('Ingress'), ...graph.of('Gateway')]) {
    const annotations = front.metadata?.annotations ?? {};
    if (!shimAnnotations.some((a) => annotations[a])) continue;
    const secrets = new Set(servedSecrets(front));
    for (const certificate of certificates)
      if (ns(certificate) === ns(front) && secrets.has(String(certificate.spec?.secretName)))
        graph.addEdge(graph.addNode(front), graph.addNode(certificate), 'manages');
  }
}
