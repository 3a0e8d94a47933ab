import { useSession } from '@/hooks/use-session';
import { MyMoney } from './my-money';

/**
 * The profile's money section (docs/charity.md "The ledger"): what the person's campaigns
 * collected, may withdraw and have withdrawn, and what they paid us, all summed from the ledger by
 * the server; lent to the auth feature's profile page by the app layer as My donations is.
 */
export default function MyMoneySection() {
  const session = useSession();
  if (!session) return null;
  return <MyMoney personId={session.id} withPaid />;
}
