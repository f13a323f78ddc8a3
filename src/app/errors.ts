import { notFoundMessage, type ResourceKind } from '../domain/shared/errors.ts';
import { ApiError } from '../ports/api-error.ts';

/** The client errors the services and routes raise most, each worded in one place. */

export const badRequest = (code: string, message: string, param: string | null = null) =>
  new ApiError(400, 'invalid_request_error', code, message, { param });
export const unauthenticated = (code: string, message: string) => new ApiError(401, 'authentication_error', code, message);
export const forbidden = (code: string, message: string) => new ApiError(403, 'permission_error', code, message);
export const notFoundError = (code: string, message: string, param: string | null = null) => new ApiError(404, 'not_found_error', code, message, { param });
/** A resource that is not there, or is another workspace's: worded the same on every route. */
export const resourceNotFound = (kind: ResourceKind, id: string, param: string | null = null) =>
  notFoundError(`${kind}_not_found`, notFoundMessage(kind, id), param);
export const tooLarge = (message: string) => new ApiError(413, 'invalid_request_error', 'request_too_large', message);
export const unsupportedMediaType = (message: string) =>
  new ApiError(415, 'invalid_request_error', 'unsupported_media_type', message);
