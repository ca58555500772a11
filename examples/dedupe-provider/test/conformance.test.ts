import { runProviderConformance } from '@ollm/provider-conformance';
import { createDedupeProvider } from '../src/index.js';

runProviderConformance(() => createDedupeProvider());
