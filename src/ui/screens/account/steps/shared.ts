/** What the sign-up steps share: the machine's `send`, and a package's price as the studio writes money. */
import type { Package } from '#contract/payments';
import type { CreateAccountEvent } from '../../../../machines/createAccount.machine';
import { useFormat } from '../../../format';

export type Send = (event: CreateAccountEvent) => void;

export function usePrice() {
  const { money } = useFormat();
  return (pkg: Pick<Package, 'price' | 'currency'>) => money(pkg.price, pkg.currency);
}
