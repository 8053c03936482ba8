/**
 * The local chart catalog's data: a few Helm charts in three repositories (one official and verified, one
 * verified, one of a user), several versions each, one with a values schema, one version without values, one
 * deprecated chart, and a package of another kind (Falco rules) that a Helm search must not return. Made up for
 * tests, shaped as Artifact Hub stores it.
 */

export interface CatalogRepository {
  repository_id: string;
  kind: number;
  name: string;
  display_name: string;
  url: string;
  verified_publisher: boolean;
  official: boolean;
  scanner_disabled: boolean;
  organization_name?: string;
  organization_display_name?: string;
  user_alias?: string;
}

export interface CatalogVersion {
  version: string;
  app_version: string;
  /** Published at, in seconds since 1970. */
  ts: number;
  prerelease?: boolean;
  /** values.yaml; undefined: the chart has none (the catalog answers 404). */
  values?: string;
  valuesSchema?: Record<string, unknown>;
}

export interface CatalogPackage {
  package_id: string;
  name: string;
  description: string;
  display_name?: string;
  keywords: string[];
  license?: string;
  stars: number;
  signed?: boolean;
  deprecated?: boolean;
  logo_image_id?: string;
  home_url?: string;
  production_organizations_count?: number;
  security_report_summary?: { critical: number; high: number; medium: number; low: number; unknown: number };
  maintainers: { name: string; email: string }[];
  links: { name: string; url: string }[];
  readme: string;
  repository: CatalogRepository;
  /** Newest first. */
  versions: CatalogVersion[];
}

const day = 86_400;
const t0 = 1_760_000_000; // 2025-10-09

/** The repositories, as Artifact Hub stores them: also what the agent's unit tests map. */
export const catalogRepositories = {
  ingressNginx: {
    repository_id: '5b1c2f0e-7a43-4c56-9f0b-3d9e8a1c2b01',
    kind: 0,
    name: 'ingress-nginx',
    display_name: 'Ingress NGINX',
    url: 'https://kubernetes.github.io/ingress-nginx',
    verified_publisher: true,
    official: true,
    scanner_disabled: false,
    organization_name: 'kubernetes',
    organization_display_name: 'Kubernetes',
  },
  bitnami: {
    repository_id: '8e2a4b6c-1d3f-4e5a-8b7c-9d0e1f2a3b02',
    kind: 0,
    name: 'bitnami',
    display_name: 'Bitnami',
    url: 'https://charts.bitnami.com/bitnami',
    verified_publisher: true,
    official: false,
    scanner_disabled: false,
    organization_name: 'bitnami',
    organization_display_name: 'Bitnami',
  },
  community: {
    repository_id: 'c4d5e6f7-0a1b-4c2d-9e3f-4a5b6c7d8e03',
    kind: 0,
    name: 'community-charts',
    display_name: 'Community charts',
    url: 'https://charts.example.org/community',
    verified_publisher: false,
    official: false,
    scanner_disabled: true,
    user_alias: 'jdoe',
  },
  falco: {
    repository_id: 'f1a2b3c4-d5e6-4f70-8a9b-0c1d2e3f4a04',
    kind: 1,
    name: 'security-rules',
    display_name: 'Security rules',
    url: 'https://rules.example.org/falco',
    verified_publisher: true,
    official: false,
    scanner_disabled: true,
    organization_name: 'falcosecurity',
  },
} satisfies Record<string, CatalogRepository>;

const nginxValues = (tag: string) =>
  `## Default values of the nginx chart\nimage:\n  repository: bitnami/nginx\n  tag: ${tag}\nreplicaCount: 1\nservice:\n  type: LoadBalancer\n  ports:\n    http: 80\n`;

const redisSchema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  properties: {
    architecture: { type: 'string', enum: ['standalone', 'replication'], default: 'replication' },
    auth: { type: 'object', properties: { enabled: { type: 'boolean', default: true } } },
  },
};

export const catalogPackages: CatalogPackage[] = [
  {
    package_id: '0f3b1a52-6c1e-4a47-9d41-2b8c7e6f5a11',
    name: 'ingress-nginx',
    description: 'Ingress controller for Kubernetes using NGINX as a reverse proxy and load balancer',
    keywords: ['ingress', 'nginx'],
    license: 'Apache-2.0',
    stars: 1180,
    signed: false,
    logo_image_id: 'a1b2c3d4-0000-4000-8000-000000000001',
    home_url: 'https://github.com/kubernetes/ingress-nginx',
    production_organizations_count: 41,
    security_report_summary: { critical: 0, high: 2, medium: 5, low: 9, unknown: 0 },
    maintainers: [{ name: 'ingress-nginx maintainers', email: 'ingress-nginx@example.org' }],
    links: [{ name: 'source', url: 'https://github.com/kubernetes/ingress-nginx' }],
    readme: '# ingress-nginx\n\nAn ingress controller for Kubernetes using NGINX.\n',
    repository: catalogRepositories.ingressNginx,
    versions: [
      {
        version: '4.11.2',
        app_version: '1.11.2',
        ts: t0 + 30 * day,
        values: 'controller:\n  replicaCount: 1\n',
      },
      {
        version: '4.11.1',
        app_version: '1.11.1',
        ts: t0 + 10 * day,
        values: 'controller:\n  replicaCount: 1\n',
      },
      {
        version: '4.10.0',
        app_version: '1.10.0',
        ts: t0 - 60 * day,
        values: 'controller:\n  replicaCount: 1\n',
      },
    ],
  },
  {
    package_id: '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c22',
    name: 'nginx',
    display_name: 'NGINX Open Source',
    description: 'NGINX Open Source is a web server that can be also used as a reverse proxy',
    keywords: ['nginx', 'http', 'web', 'www', 'reverse proxy'],
    license: 'Apache-2.0',
    stars: 412,
    signed: true,
    logo_image_id: 'a1b2c3d4-0000-4000-8000-000000000002',
    home_url: 'https://bitnami.com',
    production_organizations_count: 12,
    security_report_summary: { critical: 1, high: 3, medium: 7, low: 20, unknown: 1 },
    maintainers: [{ name: 'Broadcom', email: 'charts@example.org' }],
    links: [{ name: 'source', url: 'https://github.com/bitnami/charts/tree/main/bitnami/nginx' }],
    readme: '# NGINX Open Source packaged by Bitnami\n',
    repository: catalogRepositories.bitnami,
    versions: [
      { version: '18.2.0', app_version: '1.27.2', ts: t0 + 20 * day, values: nginxValues('1.27.2') },
      { version: '18.1.5', app_version: '1.27.1', ts: t0 + 5 * day, values: nginxValues('1.27.1') },
      { version: '17.3.0', app_version: '1.26.2', ts: t0 - 90 * day, values: nginxValues('1.26.2') },
    ],
  },
  {
    package_id: '2b3c4d5e-6f70-4b8c-9d0e-1f2a3b4c5d33',
    name: 'redis',
    description: 'Redis is an open source, in-memory data store used as a database, cache and message broker',
    keywords: ['redis', 'keyvalue', 'database'],
    license: 'Apache-2.0',
    stars: 305,
    signed: true,
    production_organizations_count: 9,
    maintainers: [{ name: 'Broadcom', email: 'charts@example.org' }],
    links: [],
    readme: '# Redis packaged by Bitnami\n',
    repository: catalogRepositories.bitnami,
    versions: [
      {
        version: '20.1.0',
        app_version: '7.4.0',
        ts: t0 + 25 * day,
        values: 'architecture: replication\nauth:\n  enabled: true\n',
        valuesSchema: redisSchema,
      },
      {
        version: '19.6.4',
        app_version: '7.2.5',
        ts: t0 - 30 * day,
        values: 'architecture: replication\n',
        valuesSchema: redisSchema,
      },
    ],
  },
  {
    package_id: '3c4d5e6f-7081-4c9d-8e0f-2a3b4c5d6e44',
    name: 'hello-world',
    description: 'A small web page that says hello, for trying out a cluster',
    keywords: ['demo', 'web'],
    stars: 3,
    maintainers: [{ name: 'Jane Doe', email: 'jdoe@example.org' }],
    links: [],
    readme: '# hello-world\n',
    repository: catalogRepositories.community,
    versions: [
      {
        version: '0.4.0-rc.1',
        app_version: '0.4.0',
        ts: t0 + 40 * day,
        prerelease: true,
        values: 'message: hi\n',
      },
      { version: '0.3.0', app_version: '0.3.0', ts: t0 + 2 * day, values: 'message: hello\n' },
      { version: '0.2.0', app_version: '0.2.0', ts: t0 - 10 * day },
    ],
  },
  {
    package_id: '4d5e6f70-8192-4dae-9f10-3b4c5d6e7f55',
    name: 'old-web',
    description: 'A web server chart nobody maintains any more',
    keywords: ['web'],
    stars: 1,
    deprecated: true,
    maintainers: [],
    links: [],
    readme: '# old-web\n',
    repository: catalogRepositories.community,
    versions: [{ version: '1.0.0', app_version: '1.0.0', ts: t0 - 300 * day, values: 'port: 80\n' }],
  },
  {
    package_id: '5e6f7081-92a3-4ebf-8a21-4c5d6e7f8a66',
    name: 'nginx-rules',
    description: 'Falco rules for nginx web servers',
    keywords: ['nginx', 'web'],
    stars: 20,
    maintainers: [],
    links: [],
    readme: '# nginx rules\n',
    repository: catalogRepositories.falco,
    versions: [{ version: '0.1.0', app_version: '0.1.0', ts: t0 }],
  },
];
