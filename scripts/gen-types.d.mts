/** The text of src/api/schema.ts as openapi.yaml generates it. */
export function generateSchemaTypes(): Promise<string>;
