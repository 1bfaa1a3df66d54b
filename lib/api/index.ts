export { validateBaseUrl } from '@/lib/validation';

export { CATEGORY_CATALOGUE } from './categories';
export { createApiClient } from './client';
export { ApiError, type ApiErrorKind } from './errors';
export { capabilitiesOf } from './forms';
export * from './schemas';
export { DEFAULT_MAX_JSON_BYTES } from './transport';
export type * from './types';
