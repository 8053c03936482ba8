import { OidcRelyingParty, type RelyingPartyLog } from '@binnacle/common/oidc';
import { oidcRedirectUri } from '../../config/oidc-config.ts';

export {
  idpTimeoutSeconds,
  idpUnavailable,
  isIdpUnavailable,
  type RefreshFailure,
} from '@binnacle/common/oidc';

export interface OidcClientSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
  scopes: string[];
  publicUrl: string;
}

/**
 * The hub as an OpenID relying party (the shared one in @binnacle/common/oidc): its callback is
 * `<publicUrl>/api/auth/oidc/callback`, RP-initiated logout returns to its base URL.
 */
export class OidcClient extends OidcRelyingParty {
  constructor(settings: OidcClientSettings, log: RelyingPartyLog) {
    const { publicUrl, ...client } = settings;
    super({ ...client, redirectUri: oidcRedirectUri(publicUrl), postLogoutRedirectUri: publicUrl }, log);
  }
}
