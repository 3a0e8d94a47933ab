/**
 * `npm run gen:rxdb-schemas`: writes sync-protocol/src/sync/rxdb-schemas.json, the RxDB JSON
 * schema of every replicated collection as rxSchemaOf derives it from the collection's zod
 * document schema. The browser opens its collections with the written file (client/src/db/
 * database.ts, editor-replica.ts) rather than converting the zod schemas at every start
 * (docs/benchmarks.md "bench:lighthouse": ~12 ms of a phone's main thread at every open). sync-protocol/src/sync/rxdb-schemas.test.ts
 * fails when the file and the zod schemas disagree, naming this command.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { COLLECTIONS, EDITOR_COLLECTIONS } from '@pm/protocol/sync/envelopes';
import { rxSchemaOf } from '@pm/protocol/sync/rxdb-schemas';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const schemas = Object.fromEntries([...COLLECTIONS, ...EDITOR_COLLECTIONS].map((name) => [name, rxSchemaOf(name)]));
const file = path.join(root, 'sync-protocol', 'src', 'sync', 'rxdb-schemas.json');
writeFileSync(file, `${JSON.stringify(schemas, null, 2)}\n`);
console.log(`wrote ${path.relative(root, file)} (${Object.keys(schemas).length} collections)`);
