import { runProviderConformance } from '@ollm/provider-conformance';
import { createTrimProvider } from './index.js';

runProviderConformance(() => createTrimProvider());
