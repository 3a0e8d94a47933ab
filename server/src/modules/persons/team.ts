import { sql, type SQL } from 'drizzle-orm';
import { MOBILE_PREFIX } from '@pm/protocol/common';
import { TEAM_DEPTH, type TeamMember } from '@pm/protocol/person';
import type { Conn } from '../../db/client';
import { containsText } from '../../db/dialect';
import { row, rows } from '../../db/transaction';

/*
 * A person's referral team, as information only (docs/charity.md "The referral team"): the people
 * they invited (depth 1), the people those invited (depth 2), and so on down to TEAM_DEPTH levels,
 * which keeps the walk cheap and bounded whatever the tree holds. Nothing is paid, credited or
 * unlocked by it: the team is a list and two counts.
 */

/**
 * The team below `personId` as a recursive walk over `parent_id`, each member once at their
 * nearest depth. The person is never in their own team, and the depth bound ends the walk also
 * over a loop that older data may hold (docs/security.md "Referrals and names").
 */
function teamOf(personId: string): SQL {
  return sql`
    with recursive down(id, depth) as (
      select id, 1 from person where parent_id = ${personId} and id <> ${personId}
      union
      select p.id, d.depth + 1 from person p join down d on p.parent_id = d.id where p.id <> ${personId} and d.depth < ${TEAM_DEPTH}
    ), team as (select id, min(depth) as depth from down group by id)`;
}

/** How many are in a person's team, and how many of them they invited themselves. */
export async function teamCounts(db: Conn, personId: string): Promise<{ team: number; direct: number }> {
  const r = await row<{ team: number | string; direct: number | string | null }>(
    db,
    sql`${teamOf(personId)} select count(*) as team, sum(case when depth = 1 then 1 else 0 end) as direct from team`,
  );
  return { team: Number(r?.team ?? 0), direct: Number(r?.direct ?? 0) };
}

/**
 * Who matches a search: a name containing `q` (case of English letters ignored), or a mobile
 * equal to `q` when it is a whole mobile number. A mobile is never found by a part of it: the list
 * shows it masked, and a search by parts would give the hidden digits away.
 */
function searchOf(db: Conn, q: string): SQL {
  if (!q) return sql`1 = 1`;
  const digits = /^(?:\+?91)?([6-9]\d{9})$/.exec(q.replace(/[\s-]/g, ''));
  const byName = containsText(db, sql`p.name`, q);
  return digits ? sql`(${byName} or p.mobile = ${MOBILE_PREFIX + digits[1]})` : byName;
}

/**
 * A mobile as the team list shows it: the first two and the last two digits, the rest hidden
 * ("98******78"), so that a member can be told apart without the list handing out their number.
 */
export function maskMobile(mobile: string): string {
  const digits = mobile.startsWith(MOBILE_PREFIX) ? mobile.slice(MOBILE_PREFIX.length) : mobile;
  if (digits.length <= 4) return '*'.repeat(digits.length);
  return `${digits.slice(0, 2)}${'*'.repeat(digits.length - 4)}${digits.slice(-2)}`;
}

type MemberRow = { id: string; name: string; mobile: string; joined_at: number | string; depth: number | string };

/** One page of a person's team matching `q`: nearest first, then by when they joined; and how many match. */
export async function teamPage(db: Conn, personId: string, input: { q: string; page: number; size: number }): Promise<{ members: TeamMember[]; total: number }> {
  const where = searchOf(db, input.q);
  const found = await rows<MemberRow>(
    db,
    sql`${teamOf(personId)}
      select p.id as id, p.name as name, p.mobile as mobile, p.created_at as joined_at, t.depth as depth
      from team t join person p on p.id = t.id
      where ${where}
      order by t.depth, p.created_at, p.id
      limit ${input.size} offset ${(input.page - 1) * input.size}`,
  );
  const total = await row<{ n: number | string }>(db, sql`${teamOf(personId)} select count(*) as n from team t join person p on p.id = t.id where ${where}`);
  return {
    members: found.map((m) => ({ id: m.id, name: m.name, mobile: maskMobile(m.mobile), joinedAt: Number(m.joined_at), depth: Number(m.depth) })),
    total: Number(total?.n ?? 0),
  };
}
