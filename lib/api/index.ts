export {
  normaliseDomainInput,
  type Validation,
  validateApiKey,
  validateBaseUrl,
  validateCategoryId,
  validateDate,
  validateIpv4,
  validateNetworkLabel,
  validateProfileName,
  validateProfileReference,
  validateTld,
} from '@/lib/validation';
export { attempts } from './attempts';
export { CATEGORY_CATALOGUE, type CategoryInfo, describeCategory, mergeWithCatalogue } from './categories';
export { API_PATHS, createApiClient, FORM_CAPABILITIES } from './client';
export { ApiError, type ApiErrorDetails, type ApiErrorKind, isApiError } from './errors';
export { createFormAApi, DEFAULT_PROFILE } from './form-a';
export { ACCOUNT_SCOPE, createFormBApi } from './form-b';
export * from './schemas';
export {
  type ApiCall,
  createTransport,
  DEFAULT_MAX_JSON_BYTES,
  DEFAULT_TIMEOUT_MS,
  isBadKeyReason,
  type Transport,
  type TransportConfig,
} from './transport';
export type * from './types';
