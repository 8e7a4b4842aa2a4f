// The promotion dialog (chessground 9 has none): when a pawn reaches the last rank, the pieces
// it may become stand in a column over the board from the square it promotes on, the queen
// there and the others towards the middle, as lichess shows them. A click on one chooses it; a
// click beside them or Escape takes the move back. Where the squares go is `promotionSquares`,
// pure and tested under Node.

import { h } from './util';

export type PromotionRole = 'queen' | 'knight' | 'rook' | 'bishop';

/** The pieces in the column's order, from the promotion square. */
export const PROMOTION_ROLES: readonly PromotionRole[] = ['queen', 'knight', 'rook', 'bishop'];

const LETTERS: Record<PromotionRole, string> = { queen: 'q', knight: 'n', rook: 'r', bishop: 'b' };

/** The UCI letter of a promotion (`q`, `n`, `r`, `b`). */
export const promotionLetter = (role: PromotionRole): string => LETTERS[role];

/** The pieces the move `uci` (from and to squares, no letter) may promote to among the legal
 * UCI moves `legal`, in the column's order; none when it is not a promotion. */
export function promotionChoices(legal: readonly string[], uci: string): PromotionRole[] {
  return PROMOTION_ROLES.filter((role) => legal.includes(uci + LETTERS[role]));
}

/** A piece of the dialog and its square on the board as seen: column and row from the top left,
 * 0 to 7. */
export interface PromotionSquare {
  role: PromotionRole;
  column: number;
  row: number;
}

/** Where the dialog's pieces stand for a promotion on `dest` (`a8`) seen from `orientation`'s
 * side: the queen on `dest`, the others on the squares below it (above it when `dest` is at the
 * bottom edge). */
export function promotionSquares(dest: string, orientation: 'white' | 'black', roles: readonly PromotionRole[] = PROMOTION_ROLES): PromotionSquare[] {
  const file = dest.charCodeAt(0) - 97;
  const rank = Number(dest[1]) - 1;
  const column = orientation === 'white' ? file : 7 - file;
  const top = orientation === 'white' ? 7 - rank : rank;
  const step = top === 0 ? 1 : -1;
  return roles.map((role, i) => ({ role, column, row: top + i * step }));
}

/**
 * Shows the dialog over `board` (the board's box, positioned) for a `color` pawn promoting on
 * `dest`; resolves to the piece chosen, or null when the move is taken back.
 */
export function choosePromotion(
  board: HTMLElement,
  dest: string,
  color: 'white' | 'black',
  orientation: 'white' | 'black',
  roles: readonly PromotionRole[] = PROMOTION_ROLES,
): Promise<PromotionRole | null> {
  return new Promise((resolve) => {
    const overlay = h('div', { class: 'cg-wrap promotion', role: 'dialog', 'aria-modal': 'true', 'aria-label': 'Promote the pawn to' });
    const done = (role: PromotionRole | null) => {
      overlay.remove();
      document.removeEventListener('keydown', onKey, true);
      resolve(role);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      e.preventDefault();
      e.stopPropagation();
      done(null);
    };
    const buttons = promotionSquares(dest, orientation, roles).map(({ role, column, row }) => {
      const button = h(
        'button',
        {
          type: 'button',
          class: 'promotion-choice',
          'data-role': role,
          title: `Promote to a ${role}`,
          'aria-label': `Promote to a ${role}`,
        },
        h('piece', { class: `${role} ${color}` }),
      );
      button.style.left = `${column * 12.5}%`;
      button.style.top = `${row * 12.5}%`;
      button.addEventListener('click', (e) => {
        e.stopPropagation();
        done(role);
      });
      return button;
    });
    overlay.append(...buttons);
    overlay.addEventListener('click', () => done(null));
    document.addEventListener('keydown', onKey, true);
    board.append(overlay);
    buttons[0]?.focus();
  });
}
