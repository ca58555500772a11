import { runProviderConformance } from '@ollm/provider-conformance';
import { createMaskProvider } from './index.js';

runProviderConformance(() => createMaskProvider());
