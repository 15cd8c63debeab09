/** The text of src/shared/schema.ts as openapi.yaml generates it. */
export function generateSchemaTypes(): Promise<string>;
