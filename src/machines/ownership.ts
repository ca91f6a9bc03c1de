/**
 * Ownership of a business entity (KYB): who owns whom, up to the natural persons at the top, with each
 * person's effective share computed through intermediate companies, and the ultimate beneficial owners
 * (UBOs): every person whose effective share is above the threshold (25 % by default).
 *
 * Pure and exact: shares are percentages with at most two decimals; effective shares are products and sums
 * of them, computed as exact fractions (BigInt), so 0.1 × 0.3 is 0.03 and a person at exactly the threshold
 * is never marked by a floating-point error. Shown values are rounded half up to two decimals; the UBO mark
 * is decided on the exact value. A cycle (A owns B owns A) has no effective shares: it is refused.
 */

export const DEFAULT_UBO_THRESHOLD = 25;

export type PartyKind = 'person' | 'company';

export interface Party {
  id: string;
  kind: PartyKind;
  name: string;
}

/** `owner` holds `share` percent (0 < share ≤ 100, at most two decimals) of `owned`. */
export interface OwnershipLink {
  owner: string;
  owned: string;
  share: number;
}

export interface OwnershipNode {
  party: Party;
  /** Percent of the node below it (the root entity: 100). */
  direct: number;
  /** Percent of the root entity held through this path, rounded to two decimals. */
  effective: number;
  /** Owners of this party that hold nothing traced further: none for persons. */
  owners: OwnershipNode[];
  /** Percent of this company held by owners not listed (free float, unknown), rounded. */
  unlisted: number;
  /** For persons: above the threshold in total (all paths together). */
  ubo: boolean;
}

export interface BeneficialOwner {
  party: Party;
  /** Total effective percent over every path, rounded half up to two decimals. */
  effective: number;
  /** How many ownership paths lead to the root entity. */
  paths: number;
  /** The longest chain of intermediate companies between the person and the entity. */
  layers: number;
  ubo: boolean;
}

export interface Ownership {
  tree: OwnershipNode;
  /** Every person who owns part of the entity, largest effective share first. */
  owners: BeneficialOwner[];
  threshold: number;
}

export type OwnershipProblem = 'cycle' | 'badShare' | 'unknownParty' | 'overAllocated' | 'personOwned';

export class OwnershipError extends Error {
  constructor(
    readonly problem: OwnershipProblem,
    /** The parties concerned (for a cycle: the loop, first party repeated at the end). */
    readonly parties: string[],
  ) {
    super(`${problem}: ${parties.join(' → ')}`);
    this.name = 'OwnershipError';
  }
}

/** A fraction of the entity: num / 10000^depth (shares are hundredths of a percent). */
interface Fraction {
  num: bigint;
  depth: number;
}

const UNIT = 10_000n;
const ONE: Fraction = { num: 1n, depth: 0 };

/** A percentage with at most two decimals as hundredths of a percent (25.5 → 2550); null if not one. */
function hundredths(share: number): bigint | null {
  if (!Number.isFinite(share) || share <= 0 || share > 100) return null;
  const scaled = Math.round(share * 100);
  if (Math.abs(scaled - share * 100) > 1e-6) return null;
  return BigInt(scaled);
}

const times = (a: Fraction, share: bigint): Fraction => ({ num: a.num * share, depth: a.depth + 1 });

function plus(a: Fraction, b: Fraction): Fraction {
  const depth = Math.max(a.depth, b.depth);
  return {
    num: a.num * UNIT ** BigInt(depth - a.depth) + b.num * UNIT ** BigInt(depth - b.depth),
    depth,
  };
}

/** Percent of the fraction, rounded half up to two decimals. */
function percent(f: Fraction): number {
  // f = num / 10000^depth; percent × 100 = num × 10000 / 10000^depth.
  const den = UNIT ** BigInt(f.depth);
  const scaled = f.num * UNIT;
  const rounded = (scaled * 2n + den) / (den * 2n);
  return Number(rounded) / 100;
}

/** Exact comparison of the fraction (as a percent) with a threshold percent of at most two decimals. */
function above(f: Fraction, threshold: number): boolean {
  const limit = hundredths(threshold) ?? BigInt(Math.round(threshold * 100));
  // f × 100 % > threshold  ⇔  num × 10000 > limit × 10000^depth  (both in hundredths of a percent)
  return f.num * UNIT > limit * UNIT ** BigInt(f.depth);
}

/**
 * The ownership tree of `rootId` and its beneficial owners. Throws OwnershipError for a cycle, a share
 * outside 0–100 % or with more than two decimals, a link to an unknown party, owners of one company holding
 * more than 100 % together, or a person being owned.
 */
export function computeOwnership(
  rootId: string,
  parties: readonly Party[],
  links: readonly OwnershipLink[],
  threshold: number = DEFAULT_UBO_THRESHOLD,
): Ownership {
  const byId = new Map(parties.map((party) => [party.id, party]));
  const root = byId.get(rootId);
  if (!root) throw new OwnershipError('unknownParty', [rootId]);
  const ownersOf = new Map<string, { owner: Party; share: bigint; percent: number }[]>();
  for (const link of links) {
    const owner = byId.get(link.owner);
    const owned = byId.get(link.owned);
    if (!owner || !owned) throw new OwnershipError('unknownParty', [link.owner, link.owned]);
    if (owned.kind === 'person') throw new OwnershipError('personOwned', [link.owner, link.owned]);
    const share = hundredths(link.share);
    if (share === null) throw new OwnershipError('badShare', [link.owner, link.owned]);
    const list = ownersOf.get(link.owned) ?? [];
    list.push({ owner, share, percent: link.share });
    ownersOf.set(link.owned, list);
  }
  for (const [owned, list] of ownersOf) {
    const total = list.reduce((sum, item) => sum + item.share, 0n);
    if (total > UNIT)
      throw new OwnershipError('overAllocated', [owned, ...list.map((item) => item.owner.id)]);
  }

  const totals = new Map<string, { fraction: Fraction; paths: number; layers: number }>();
  const marks: OwnershipNode[] = [];

  const build = (party: Party, direct: number, fraction: Fraction, path: string[]): OwnershipNode => {
    if (path.includes(party.id)) {
      throw new OwnershipError('cycle', [...path.slice(path.indexOf(party.id)), party.id]);
    }
    const node: OwnershipNode = {
      party,
      direct,
      effective: percent(fraction),
      owners: [],
      unlisted: 0,
      ubo: false,
    };
    if (party.kind === 'person') {
      const layers = Math.max(0, path.length - 1);
      const total = totals.get(party.id);
      totals.set(
        party.id,
        total
          ? {
              fraction: plus(total.fraction, fraction),
              paths: total.paths + 1,
              layers: Math.max(total.layers, layers),
            }
          : { fraction, paths: 1, layers },
      );
      marks.push(node);
      return node;
    }
    const owners = ownersOf.get(party.id) ?? [];
    const listed = owners.reduce((sum, item) => sum + item.share, 0n);
    node.unlisted = Number(UNIT - listed) / 100;
    node.owners = owners.map((item) =>
      build(item.owner, item.percent, times(fraction, item.share), [...path, party.id]),
    );
    return node;
  };

  const tree = build(root, 100, ONE, []);
  const owners: BeneficialOwner[] = [...totals.entries()].map(([id, total]) => ({
    party: byId.get(id) as Party,
    effective: percent(total.fraction),
    paths: total.paths,
    layers: total.layers,
    ubo: above(total.fraction, threshold),
  }));
  const ubos = new Set(owners.filter((owner) => owner.ubo).map((owner) => owner.party.id));
  for (const node of marks) node.ubo = ubos.has(node.party.id);
  owners.sort((a, b) => b.effective - a.effective || a.party.name.localeCompare(b.party.name));
  return { tree, owners, threshold };
}
