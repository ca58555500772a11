import { createIdentityProvider } from './identity-provider.js';
import { runProviderConformance } from './run-provider-conformance.js';

// The identity provider is the smallest conforming provider: the whole suite must pass on it.
runProviderConformance(() => createIdentityProvider(), { numRuns: 10 });
