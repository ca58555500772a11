/**
 * @deprecated Use `redactSecrets` from `@ollm/core` (this is that function): it replaces the
 * process's registered secrets, the ones given (of any length and any characters; under 4
 * characters only where they stand alone) and URL credentials.
 */
export { redactSecrets } from '@ollm/core';
