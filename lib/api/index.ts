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
export { createApiClient } from './client';
export { ApiError, type ApiErrorDetails, type ApiErrorKind, isApiError } from './errors';
export { ACCOUNT_SCOPE, capabilitiesOf, DEFAULT_PROFILE } from './forms';
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
