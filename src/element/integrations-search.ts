// Internal: the list's search, as a person types it: accents, case and the letters no decomposition takes to Latin
// folded away, every word typed found in a row's name or description.

/** Above this many rows, a search input filters them. */
export const SEARCH_FROM = 9;

/** Letters that no Unicode decomposition takes to plain Latin, folded as a person types them. */
const FOLDS: Record<string, string> = {
  ß: 'ss',
  ẞ: 'ss',
  ł: 'l',
  Ł: 'l',
  ı: 'i',
  İ: 'i',
  ø: 'o',
  Ø: 'o',
  đ: 'd',
  Đ: 'd',
  æ: 'ae',
  Æ: 'ae',
  œ: 'oe',
  Œ: 'oe',
};

/** Text as the search compares it: without accents or case ("Łódź" -> "lodz", "Straße" -> "strasse"). */
export const fold = (text: string): string =>
  text
    .replace(/[ßẞłŁıİøØđĐæÆœŒ]/g, (letter) => FOLDS[letter])
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLocaleLowerCase('en');

/** The words of a search, folded. */
export const wordsOf = (typed: string): string[] => fold(typed).split(/\s+/).filter(Boolean);

/** Whether a text holds every word of a search (none: every text does). */
export const matchesAll = (text: string, words: string[]): boolean => {
  const folded = fold(text);
  return words.every((word) => folded.includes(word));
};
