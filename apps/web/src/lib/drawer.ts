/**
 * One menu button on small screens (issue 14): a page with its own drawer there (the file
 * browser's sidebar) offers a slot in it; the navbar then puts its links into that slot and lets
 * its menu button open the drawer, instead of showing a second menu button of its own. Kept in
 * lib so that neither feature imports the other.
 */
import { atom } from 'jotai';

/** The element in the page's drawer that takes the site's menu (null: no drawer on this page). */
export const drawerSlotAtom = atom<HTMLElement | null>(null);

/** Whether that drawer is open. */
export const drawerOpenAtom = atom(false);

/** The id of the drawer (aria-controls of the button that opens it). */
export const DRAWER_ID = 'files-sidebar';
