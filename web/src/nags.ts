// Numeric annotation glyphs as the symbols people read (PGN standard, section 10).

const GLYPHS: Record<number, string> = {
  1: '!',
  2: '?',
  3: '!!',
  4: '??',
  5: '!?',
  6: '?!',
  7: '□',
  10: '=',
  13: '∞',
  14: '⩲',
  15: '⩱',
  16: '±',
  17: '∓',
  18: '+−',
  19: '−+',
  22: '⨀',
  23: '⨀',
  32: '⟳',
  33: '⟳',
  36: '→',
  37: '→',
  40: '↑',
  41: '↑',
  132: '⇆',
  133: '⇆',
  138: '⊕',
  139: '⊕',
  140: '∆',
  142: '⌓',
  145: 'RR',
  146: 'N',
};

const NAMES: Record<number, string> = {
  1: 'good move',
  2: 'mistake',
  3: 'brilliant move',
  4: 'blunder',
  5: 'interesting move',
  6: 'dubious move',
  7: 'only move',
  10: 'equal position',
  13: 'unclear position',
  14: 'White is slightly better',
  15: 'Black is slightly better',
  16: 'White is better',
  17: 'Black is better',
  18: 'White is winning',
  19: 'Black is winning',
  22: 'zugzwang',
  23: 'zugzwang',
  32: 'development advantage',
  33: 'development advantage',
  36: 'initiative',
  37: 'initiative',
  40: 'attack',
  41: 'attack',
  132: 'counterplay',
  133: 'counterplay',
  138: 'time trouble',
  139: 'time trouble',
  140: 'with the idea',
  142: 'better is',
  145: 'editorial comment',
  146: 'novelty',
};

/** The glyph of a NAG, or `$n` when it has none. */
export function nagGlyph(nag: number): string {
  return GLYPHS[nag] ?? `$${nag}`;
}

/** What a NAG means, for a tooltip. */
export function nagName(nag: number): string {
  return NAMES[nag] ?? `NAG ${nag}`;
}

/** Move glyphs (1-7) come right after the move; the others after a space. */
export function isMoveGlyph(nag: number): boolean {
  return nag >= 1 && nag <= 7;
}
