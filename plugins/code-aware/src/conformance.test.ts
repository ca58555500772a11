import { runProviderConformance } from '@ollm/provider-conformance';
import { createCodeAwareProvider } from './index.js';

runProviderConformance(() => createCodeAwareProvider());
