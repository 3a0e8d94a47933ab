// `npm run create-admin -- --name "Asha Rao" --mobile 9876543210 [--email asha@example.org] [--generate-password]`
//
// Makes the first ADMIN of a real installation (docs/deployment.md "A real installation": a production start seeds no accounts).
// The password is typed at a prompt that does not echo it, or read from the first line of stdin
// when stdin is not a terminal (`printf '%s\n' "$PW" | npm run create-admin -- …`), or drawn
// from the CSPRNG and printed once with --generate-password. It is never taken from the command
// line, which shell history and `ps` show to others. It must pass the password policy
// (lib/password-policy.ts). The database is the server's: DATA_DIR as for `npm start`; the
// command can run while the server runs.
import { parseArgs } from 'node:util';
import { eq, or } from 'drizzle-orm';
import type { z } from 'zod';
import { emailSchema, mobileSchema, passwordSchema, personNameSchema } from '@pm/protocol/common';
import { openConfigured } from '../server/src/db/client';
import { first, transaction } from '../server/src/db/transaction';
import { permission, person, role } from '../server/src/db/schema';
import { seedDatabase } from '../server/src/db/seed';
import { loadConfig, parseEnv } from '../server/src/env';
import { logActivity } from '../server/src/lib/activity';
import { hashPassword } from '../server/src/lib/passwords';
import { passwordProblem } from '../server/src/lib/password-policy';
import { generatePassword } from '../server/src/lib/passwords';
import { auditView, setPersonPermissions } from '../server/src/modules/persons/persons.repo';

const USAGE = 'usage: npm run create-admin -- --name "Full Name" --mobile 98XXXXXXXX [--email you@example.org] [--generate-password]';
/** A generated password: 16 characters of 57 (~93 bits). */
const GENERATED_LENGTH = 16;

/** A refusal the user can act on: printed without a stack trace, with the usage when `usage`. */
class CommandError extends Error {
  constructor(
    message: string,
    readonly usage = false,
  ) {
    super(message);
  }
}

function fail(message: string, usage = false): never {
  throw new CommandError(message, usage);
}

function parse<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
  const r = schema.safeParse(value);
  if (!r.success) fail(`${what}: ${r.error.issues[0]?.message ?? 'invalid'}`);
  return r.data;
}

/** Reads a line from a terminal without echoing it. */
function promptHidden(question: string): Promise<string> {
  const stdin = process.stdin;
  process.stderr.write(question);
  return new Promise((resolve, reject) => {
    let typed = '';
    stdin.setRawMode(true);
    stdin.resume();
    stdin.setEncoding('utf8');
    const done = (err?: Error) => {
      stdin.setRawMode(false);
      stdin.pause();
      stdin.off('data', onData);
      process.stderr.write('\n');
      if (err) reject(err);
      else resolve(typed);
    };
    const onData = (chunk: string) => {
      for (const ch of chunk) {
        if (ch === '\r' || ch === '\n') return done();
        if (ch === '\u0003' || ch === '\u0004') return done(new CommandError('cancelled'));
        if (ch === '\u007f' || ch === '\b') typed = typed.slice(0, -1);
        else typed += ch;
      }
    };
    stdin.on('data', onData);
  });
}

/** The first line of stdin (a pipe or a file). */
async function readFirstLine(): Promise<string> {
  let text = '';
  for await (const chunk of process.stdin) {
    text += String(chunk);
    if (text.includes('\n')) break;
  }
  return text.split(/\r?\n/)[0] ?? '';
}

async function readPassword(generate: boolean): Promise<{ password: string; generated: boolean }> {
  if (generate) return { password: generatePassword(GENERATED_LENGTH), generated: true };
  if (process.stdin.isTTY) {
    const first = await promptHidden('Password for the new admin: ');
    const again = await promptHidden('Type it again: ');
    if (first !== again) fail('the two passwords differ');
    return { password: first, generated: false };
  }
  return { password: await readFirstLine(), generated: false };
}

async function main() {
  // As the server (index.ts): whatever this creates in DATA_DIR (a new database, -wal, -shm) is
  // its user's alone.
  process.umask(0o077);
  const argv = process.argv.slice(2);
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(USAGE);
    return;
  }
  if (argv.some((a) => a === '--password' || a.startsWith('--password='))) {
    fail('the password is never taken from the command line (shell history and ps show it): type it at the prompt, pipe it on stdin, or use --generate-password', true);
  }
  let values: { name?: string; mobile?: string; email?: string; 'generate-password'?: boolean };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { name: { type: 'string' }, mobile: { type: 'string' }, email: { type: 'string' }, 'generate-password': { type: 'boolean' } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (err) {
    fail(err instanceof Error ? err.message : String(err), true);
  }
  if (!values.name || !values.mobile) fail('--name and --mobile are required', true);
  const name = parse(personNameSchema, values.name, 'name');
  const mobile = parse(mobileSchema, values.mobile, 'mobile');
  const email = values.email ? parse(emailSchema, values.email, 'email') : null;

  const { password, generated } = await readPassword(values['generate-password'] ?? false);
  parse(passwordSchema, password, 'password');
  const problem = passwordProblem(password, { mobile, email });
  if (problem) fail(`password: ${problem}`);

  const config = loadConfig(parseEnv());
  // PostgreSQL when DATABASE_URL is set, else the SQLite database in DATA_DIR (as the server).
  const database = await openConfigured(config);
  try {
    // A database no server has started yet gets the reference data (roles, permissions), never
    // the demo accounts: this command is for real installations.
    await seedDatabase(database.db, { demo: false });
    const passwordHash = await hashPassword(password);
    const created = await transaction(database.db, async (tx) => {
      const admin = await first(tx.select().from(role).where(eq(role.name, 'ADMIN')));
      if (!admin) fail('the ADMIN role is missing from the database');
      const taken = await first(
        tx
          .select({ id: person.id })
          .from(person)
          .where(email ? or(eq(person.mobile, mobile), eq(person.email, email)) : eq(person.mobile, mobile)),
      );
      if (taken) fail(`a person with this mobile or e-mail exists already (${taken.id})`);
      const row = (await first(tx.insert(person).values({ name, mobile, email, roleId: admin.id, status: 'ACTIVE', passwordHash }).returning()))!;
      // Every permission there is (the ADMIN role's '*' of fixtures/roles.json), whatever the
      // role was edited to since.
      await setPersonPermissions(
        tx,
        row.id,
        (await tx.select({ id: permission.id }).from(permission)).map((p) => p.id),
      );
      // No signed-in actor: the log shows the system made it.
      await logActivity(tx, { actor: null, action: 'CREATE', entity: 'person', entityId: row.id, newValue: await auditView(tx, row) });
      return row;
    });
    console.log(`Created the admin ${created.name} (${created.mobile}${created.email ? `, ${created.email}` : ''}), id ${created.id}.`);
    console.log('Sign in with the mobile (10 digits) or the e-mail.');
    if (generated) console.log(`Password (shown only this once; keep it somewhere safe): ${password}`);
  } finally {
    await database.close();
  }
}

main().catch((err: unknown) => {
  if (err instanceof CommandError) {
    console.error(`create-admin: ${err.message}`);
    if (err.usage) console.error(USAGE);
  } else {
    console.error(err instanceof Error ? (err.stack ?? err.message) : err);
  }
  process.exit(1);
});
