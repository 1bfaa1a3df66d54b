/**
 * `createApiClient`: checks the configuration, then builds the adapter (adapter.ts) of the
 * configured form, which checks every input before any call.
 */
import { t } from '@/lib/i18n';
import { validateApiKey, validateBaseUrl } from '@/lib/validation';
import { createFormAdapter } from './adapter';
import { ApiError, validOrThrow } from './errors';
import { isApiForm } from './forms';
import { createTransport, DEFAULT_MAX_JSON_BYTES, DEFAULT_TIMEOUT_MS } from './transport';
import type { ApiClientConfig, DnsFilterApi } from './types';

const positiveOr = (value: number | undefined, fallback: number) =>
  value !== undefined && Number.isFinite(value) && value > 0 ? value : fallback;

/**
 * Throws ApiError 'invalid-input' (details.field: `baseUrl`, `key` or `form`) when the
 * configuration cannot work; every method then rejects only with ApiError.
 */
export function createApiClient(config: ApiClientConfig): DnsFilterApi {
  if (!isApiForm(config.form)) {
    throw new ApiError('invalid-input', t('api.chooseForm'), { field: 'form' });
  }
  const transport = createTransport({
    origin: validOrThrow(validateBaseUrl(config.baseUrl), 'baseUrl'),
    key: validOrThrow(validateApiKey(config.key), 'key'),
    form: config.form,
    fetch: config.fetch ?? ((input, init) => globalThis.fetch(input, init)),
    timeoutMs: positiveOr(config.timeoutMs, DEFAULT_TIMEOUT_MS),
    maxJsonBytes: positiveOr(config.maxJsonBytes, DEFAULT_MAX_JSON_BYTES),
  });
  return createFormAdapter(config.form, transport);
}
