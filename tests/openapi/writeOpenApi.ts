import { writeFileSync } from 'node:fs';
import { openApiDocument } from './generateOpenApi';

// Regenerates docs/openapi.json: `pnpm docs:openapi`.
const target = new URL('../../docs/openapi.json', import.meta.url);
writeFileSync(target, `${JSON.stringify(openApiDocument(), null, 2)}\n`);
console.log(`wrote ${target.pathname}`);
