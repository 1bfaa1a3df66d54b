/**
 * The managed-policy test build (MANAGED_POLICY_TEST_BUILD=1, wxt.config.ts): the extension with a
 * manifest `key` of its own, so Chromium gives it an id no other build has, and in Firefox a gecko
 * id of its own. Its end-to-end tests write a policy for that id only
 * (tests/e2e/managed-policy.*.e2e.ts): a policy file on the machine cannot reach the extension
 * other tests load. Only the public half of the key was
 * kept; nothing is ever signed with it.
 */
export const MANAGED_TEST_MANIFEST_KEY =
  'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAjTrmcWyCR7Y8sNza7OBvCfcMmjLRexA+hgb/HUsMT+pjEBkLC4pbXq4KTPYyvSscjCVbJpgdcfPqj7V5Hk3vRrgNoaKCpPUxBTniFL4MVxjCo2vOkE6/iYI5Dyqg+Bya60cnFHjPiLUVGl3vAveSzXC4jpLksoHfREHt4iWktv1ir37SU94COm4beVXwa7FTYRABkXqcvN419iLjh7/f0Z9fIA04DD81dBp0+10Xt7oaE4/p2LNZpJ1LCohD9XHdh4cHXAhLVq1dysP7Milag+uIpjNdStvz0OKcR2/YGFnNHi+RY/uucZyTLPgtLZpz6X9XLJWxZrspKqcrTDfdUQIDAQAB';

/** The Chromium extension id MANAGED_TEST_MANIFEST_KEY gives (SHA-256 of the key, a–p). */
export const MANAGED_TEST_EXTENSION_ID = 'mdckanfndmipcdfblecohghcdflabhde';

/** The Firefox add-on id of the managed-policy test build: policies.json names it, and only it. */
export const MANAGED_TEST_GECKO_ID = 'dns-filter-companion-managed-test@example.org';
