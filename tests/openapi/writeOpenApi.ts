import { writeFileSync } from 'node:fs';
import { openApiDocument } from './generateOpenApi';
import { OPENAPI_FILE, THIRD_PARTY_TYPES_FILE, thirdPartyTypes } from './thirdPartyTypes';

// Regenerates docs/openapi.json, then the types a third party generates from it (which the
// third-party client test is compiled against): `pnpm docs:openapi`.
writeFileSync(OPENAPI_FILE, `${JSON.stringify(openApiDocument(), null, 2)}\n`);
console.log(`wrote ${OPENAPI_FILE.pathname}`);
writeFileSync(THIRD_PARTY_TYPES_FILE, await thirdPartyTypes(OPENAPI_FILE));
console.log(`wrote ${THIRD_PARTY_TYPES_FILE.pathname}`);
