/**
 * AML screening (docs/product/README.md, docs/product/api.md): a small interface with one working local implementation. The list is the
 * bundled sample (sampleWatchlist.json) unless AML_LIST_PATH names a full OpenSanctions or OFAC list.
 */
import { type ListFormat, loadSampleWatchlist, loadWatchlistFile } from './lists';
import { createScreener, type Screener } from './screening';

export type { AmlMatch } from '#contract/amlMatch';
export type { Screener, ScreeningResult, ScreeningSubject } from './screening';

export interface AmlScreeningConfig {
  /** A full list file; unset: the bundled sample. */
  listPath: string | undefined;
  /** Unset: told by the file's first line. */
  listFormat: ListFormat | undefined;
  /** 0–100: the score from which a listed person is a hit. */
  threshold: number;
}

/** Loads the configured list (synchronously: at start-up, so a bad path stops the server with its reason). */
export function createAmlScreener(config: AmlScreeningConfig): Screener {
  const list = config.listPath
    ? loadWatchlistFile(config.listPath, config.listFormat)
    : loadSampleWatchlist();
  return createScreener(list, { threshold: config.threshold });
}
