import type { AnyCollectionName } from './envelopes';
import type { rxSchemaOf } from './rxdb-schemas';
import written from './rxdb-schemas.json';

/** A collection's RxDB JSON schema, as rxSchemaOf derives it. */
export type RxCollectionSchema = ReturnType<typeof rxSchemaOf>;

/**
 * Every replicated collection's RxDB schema, derived from the zod document schemas ahead of time
 * (`npm run gen:rxdb-schemas` writes rxdb-schemas.json; rxdb-schemas.test.ts fails when the file
 * and the zod schemas disagree). The browser opens its collections with these, without converting
 * the zod schemas at every start (docs/benchmarks.md "bench:lighthouse").
 */
export const RX_SCHEMAS = written as unknown as Readonly<Record<AnyCollectionName, RxCollectionSchema>>;
