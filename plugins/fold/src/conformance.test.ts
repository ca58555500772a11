import { runProviderConformance } from '@ollm/provider-conformance';
import { createFoldProvider } from './index.js';

runProviderConformance(() => createFoldProvider());
