/**
 * Every error the agent and the hub answer with: `{ error: <human message>, code: <one of these> }`.
 * The table is the single source for statuses; docs/api/errors.md is checked against it.
 */
export const errorCodes = {
  invalid_request: {
    status: 400,
    description: 'A parameter, query or body field is missing or invalid; the message names it.',
  },
  invalid_yaml: {
    status: 400,
    description: 'A YAML body could not be parsed; the message names the document.',
  },
  invalid_query: {
    status: 400,
    description:
      "The metrics store refused the query (PromQL syntax, unknown function, bad parameter); the message is the store's own.",
  },
  invalid_signature: {
    status: 400,
    description:
      'Billing webhook: the Stripe-Signature header is missing, does not match the body and the webhook secret, or its timestamp is outside the tolerance window; nothing was stored.',
  },
  unknown_kind: {
    status: 400,
    description:
      'The resource kind is not served by the cluster, or is not one the route takes (the message names those it does).',
  },
  ambiguous_kind: {
    status: 400,
    description: 'The kind exists in several API groups; pass `group` to choose.',
  },
  unauthenticated: { status: 401, description: 'No valid credential was presented.' },
  session_ended: {
    status: 401,
    description:
      "The hub session ended (lifetime, inactivity, sign-out, a new sign-in in the same browser, removal from the organization, the IdP's logout or refusal to refresh, new break-glass password); the message says which. Its cookie keeps this answer until the session's lifetime would have ended; sign in again.",
  },
  sign_in_failed: {
    status: 401,
    description:
      'OIDC sign-in did not complete: the IdP refused it (e.g. invalid_scope), or the code, state or ID token did not check out.',
  },
  invalid_credentials: {
    status: 401,
    description: 'The sign-in e-mail or password is wrong (the answer does not say which).',
  },
  proxy_not_trusted: {
    status: 401,
    description:
      "Identity headers came from an address that is not one of the agent's trusted proxies (`--auth-proxy-addresses`).",
  },
  direct_access_refused: {
    status: 401,
    description:
      "A cloud-mode agent's own port answers only `/api/health`; every other request goes through the hub (`/c/<cluster_id>/…`), which authenticates it.",
  },
  registry_unauthorized: {
    status: 401,
    description:
      'The image registry refused the credentials, or wants some and none of the pull secrets matched it; the message names the registry.',
  },
  plan_limit: {
    status: 402,
    description:
      "The organization's plan allows no more of this (clusters or members); the message names the limit. Upgrade through billing checkout or the portal.",
  },
  forbidden: {
    status: 403,
    description: 'The identity may not do this (Kubernetes RBAC or a Binnacle role).',
  },
  cloud_role_insufficient: {
    status: 403,
    description:
      "Cloud mode: the operation is for the organization's owners (the agent's own configuration and version); the caller's hub role is lower.",
  },
  origin_rejected: {
    status: 403,
    description:
      'A cookie-authenticated write came from another origin (CSRF protection); send it from the hub page or use a PAT.',
  },
  outside_allowed_folders: {
    status: 403,
    description:
      'Desktop: the path is outside the folders the desktop helpers may open (the downloads folder and the data directory); the message names them.',
  },
  not_found: { status: 404, description: 'The object does not exist.' },
  route_not_found: { status: 404, description: 'No route matches the path.' },
  kind_not_served: {
    status: 404,
    description:
      "The route acts on a project's custom resource (docs/ecosystem-actions.md) whose kind the cluster does not serve: the project's CRDs are not installed; the message names the kind and its API group.",
  },
  billing_disabled: {
    status: 404,
    description:
      'Billing is not configured on this hub (self-hosted): there are no plans and no limits (docs/billing.md).',
  },
  time_travel_off: {
    status: 404,
    description:
      'Time travel is switched off on this agent (`--time-travel-window 0`): it keeps no past states (docs/time-travel.md).',
  },
  method_not_allowed: {
    status: 405,
    description: 'The path exists but not with this method; the Allow header lists the methods it takes.',
  },
  not_acceptable: {
    status: 406,
    description:
      'The Accept header does not list a media type the route answers with (MCP: both `application/json` and `text/event-stream`).',
  },
  conflict: {
    status: 409,
    description:
      'The change conflicts with the current state (field manager conflict, stale resourceVersion, object being deleted).',
  },
  already_exists: { status: 409, description: 'An object with that name already exists.' },
  invitations_unavailable: {
    status: 409,
    description:
      'Invitations need a way for the invitee to sign in: this hub signs in no one but the break-glass admin (no OIDC, no hosted identity provider). Configure OIDC (docs/sso.md) first.',
  },
  drain_incomplete: {
    status: 409,
    description:
      'A node drain stopped before the node was empty (a PodDisruptionBudget, a pod that needs a drain switch, the timeout); the node stays cordoned and the answer lists every pod.',
  },
  update_not_available: {
    status: 409,
    description:
      'Desktop: the release manifest names no version newer than the running one, or no build for this platform.',
  },
  update_in_progress: {
    status: 409,
    description: 'Desktop: an update is already being checked or applied; wait for it to finish.',
  },
  not_single_executable: {
    status: 409,
    description:
      'Desktop: the agent does not run as the single-executable binary, so there is no executable to replace.',
  },
  request_timeout: {
    status: 408,
    description: 'The request did not arrive in full in time; the connection is closed.',
  },
  outside_history: {
    status: 410,
    description:
      'Time travel: the moment asked for (`at`, `from`, `to`) is outside what the agent keeps of that kind; `oldest` and `newest` name the window (RFC 3339).',
  },
  resource_version_expired: {
    status: 410,
    description: 'The requested resourceVersion is too old; list again.',
  },
  payload_too_large: { status: 413, description: 'The body exceeds the size limit.' },
  image_file_too_large: {
    status: 413,
    description:
      'A file of an image is larger than the agent serves (`--image-file-max-size`); the message gives both sizes.',
  },
  uri_too_long: {
    status: 414,
    description: 'A path segment is longer than 253 characters (the longest Kubernetes name).',
  },
  upgrade_required: {
    status: 426,
    description:
      "The endpoint needs an upgraded connection of another protocol: `Upgrade: websocket` for WebSocket routes, the tunnel's own for agents dialing the hub; the message names it.",
  },
  unsupported_media_type: { status: 415, description: 'The Content-Type is not accepted by this route.' },
  invalid: {
    status: 422,
    description: 'Kubernetes rejected the object as invalid; the message carries its field errors.',
  },
  values_invalid: {
    status: 422,
    description: "The values do not meet the chart's values.schema.json; the message is helm's.",
  },
  kubeconfig_invalid: {
    status: 422,
    description:
      'A Cluster API Secret holds no kubeconfig under its `value` key, or what it holds names no usable context.',
  },
  checksum_mismatch: {
    status: 422,
    description:
      "Desktop: the downloaded update's size or SHA-256 is not the manifest's; it was deleted and the executable left as it was.",
  },
  rate_limited: { status: 429, description: 'Too many requests; retry after the Retry-After header.' },
  headers_too_large: {
    status: 431,
    description: 'The request headers exceed the size limit; the connection is closed.',
  },
  internal_error: {
    status: 500,
    description: 'An unexpected failure inside Binnacle; details are in its log, never in the answer.',
  },
  method_not_implemented: {
    status: 501,
    description:
      "The request method is not one the server's HTTP parser knows (e.g. `FOO`), on any path (RFC 9110 §15.6.2); the connection is closed. A method it knows that a path does not take is 405.",
  },
  cluster_credentials_rejected: {
    status: 502,
    description:
      "The Kubernetes API server rejected the agent's own credentials (expired token, revoked certificate).",
  },
  cluster_disconnected: {
    status: 502,
    description: "The cluster's tunnel dropped before its agent answered; retry.",
  },
  cluster_error: { status: 502, description: 'The Kubernetes API server failed (5xx).' },
  chart_source_error: {
    status: 502,
    description:
      'A chart repository or registry failed, timed out or answered something that is not a chart source; the message names it.',
  },
  registry_error: {
    status: 502,
    description:
      'The image registry could not be reached, timed out or answered something that is not an image; the message names it.',
  },
  metrics_store_error: {
    status: 502,
    description:
      'The metrics store at the given address could not be reached, timed out, refused the credentials or is not a Prometheus-compatible store; the message says what was tried.',
  },
  reconcile_failed: {
    status: 502,
    description:
      "A GitOps controller handled a reconcile request and reports it failed (its Ready condition's reason and message are quoted); what depended on it was left alone.",
  },
  update_source_error: {
    status: 502,
    description:
      'Desktop: the release manifest or its download could not be fetched, timed out or is malformed; the message says which.',
  },
  payment_provider_error: {
    status: 502,
    description: 'Stripe could not be reached, timed out or refused the request; retry, the log says why.',
  },
  not_ready: {
    status: 503,
    description:
      'The data is still loading (informers syncing), or — break-glass sign-in — this hub replica still runs the previous break-glass password during a rolling restart; retry shortly.',
  },
  ui_not_built: {
    status: 503,
    description: 'The web UI has not been built; `sh scripts/bootstrap.sh` (run by `npm start`) builds it.',
  },
  too_many_streams: {
    status: 503,
    description: 'The agent already serves its maximum of concurrent streams of this kind; retry later.',
  },
  idp_unavailable: {
    status: 503,
    description:
      'The identity provider did not answer (down, 429, 5xx or timeout); the session is kept, retry shortly.',
  },
  oidc_client_misconfigured: {
    status: 503,
    description:
      "The identity provider refused the hub's own client credentials (invalid_client); an administrator must fix the OIDC settings.",
  },
  cluster_offline: {
    status: 503,
    description: 'The cluster is registered but its agent is not connected to the hub right now.',
  },
  cluster_unreachable: { status: 503, description: 'The Kubernetes API server cannot be reached.' },
  helm_unavailable: {
    status: 503,
    description:
      'The agent has no helm binary to change releases with; set --helm-binary or put helm on its PATH.',
  },
  opener_unavailable: {
    status: 503,
    description:
      "Desktop: the platform's opener (xdg-open, open, rundll32) could not be started on the agent's machine.",
  },
  update_not_configured: {
    status: 503,
    description: 'Desktop: no release manifest is configured; start `binnacle desktop` with `--update-url`.',
  },
  self_upgrade_unavailable: {
    status: 503,
    description:
      'The agent cannot upgrade itself: it does not run in a cluster from charts/binnacle-agent with `rbac.selfUpgrade=true`, or its Deployment is not part of a Helm release.',
  },
  access_review_unavailable: {
    status: 503,
    description:
      "Whether the caller may do this could not be checked: the access review (SubjectAccessReview) could not be made — the API server was unreachable, timed out, failed or refused the agent's review. Access is refused, never granted; the agent logs why; retry shortly.",
  },
  not_reconciled: {
    status: 504,
    description:
      'A GitOps controller did not handle a reconcile request in time (is it running?); what depended on it was left alone.',
  },
  cluster_timeout: { status: 504, description: 'The Kubernetes API server did not answer in time.' },
  repohost_error: {
    status: 502,
    description: 'The code host (its API) could not be reached or failed; the message says how.',
  },
  agent_timeout: {
    status: 504,
    description: "The cluster's agent did not answer through the tunnel in time (a hub call that fans out).",
  },
} as const satisfies Record<string, { status: number; description: string }>;

export type ErrorCode = keyof typeof errorCodes;

/** The body of every error response. */
export interface ErrorBody {
  error: string;
  code: ErrorCode;
}

export function statusOf(code: ErrorCode): number {
  return errorCodes[code].status;
}

/** The Markdown table of codes that docs/api/errors.md carries (kept equal by a test). */
export function errorTableMarkdown(): string {
  const rows = Object.entries(errorCodes).map(
    ([code, { status, description }]) => `| \`${code}\` | ${status} | ${description} |`,
  );
  return ['| code | HTTP status | meaning |', '|---|---|---|', ...rows].join('\n');
}
