import { generateOpenApi } from '@ts-rest/open-api';
import { contract, PROTOCOL_VERSION } from '@webbridge/contract';

/** The OpenAPI 3 document of the protocol, derived from the contract (never written by hand). */
export function openApiDocument(): object {
  return generateOpenApi(
    contract,
    {
      info: {
        title: 'webbridge',
        version: String(PROTOCOL_VERSION),
        description:
          'Share and drive a live AI chat session from a browser. Protected routes take `Authorization: Bearer <access code>`. See docs/PROTOCOL.md.',
      },
      components: { securitySchemes: { accessCode: { type: 'http', scheme: 'bearer' } } },
    },
    { setOperationId: true },
  );
}
