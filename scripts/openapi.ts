// Writes docs/openapi.json from src/api. Run: npm run openapi
import { writeFileSync } from 'node:fs';
import { renderOpenApi } from '../src/api/openapi.js';

writeFileSync(new URL('../docs/openapi.json', import.meta.url), renderOpenApi());
console.log('wrote docs/openapi.json');
