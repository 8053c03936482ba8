const label = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';

/** A DNS-1123 label: what Kubernetes requires of namespace names (at most 63 characters). */
export const dnsLabelPattern = `^${label}$`;

/** A DNS-1123 subdomain, dot-separated labels: what most object names must be (at most 253 characters). */
export const dnsSubdomainPattern = `^${label}(\\.${label})*$`;
