import { errorMessage } from '../../base/shared/errors.ts'

/**
 * A REST failure in words, with the permission to grant when GitHub refused for want of one (403, or
 * 404 for resources the token may not even see).
 */
export function apiFailure(error: unknown, permission: string): string {
  const status = typeof error === 'object' && error !== null && 'status' in error ? Number((error as { status: unknown }).status) : null
  const message = errorMessage(error).replace(/ - https:\/\/docs\.github\.com\S*$/, '')
  if (status === 403 || status === 404) return `${message} (HTTP ${status}); the workflow needs \`permissions: { ${permission} }\``
  return status ? `${message} (HTTP ${status})` : message
}
