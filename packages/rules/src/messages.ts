/**
 * Texts both sides say: the server as an error's message, the web app (and the command-line
 * client) as a tooltip, a toast or a field's error. Where docs/product.md "Messages" gives a
 * text (docs/web-files.md lists where the app departs from it) it is that text, word for word: e2e
 * journeys and the server's tests compare them exactly, so each is written here once.
 */

/** Items (docs/protocol.md "Who may do what"). */
export const NO_EDIT_TEXT = 'You do not have permission to rename/move/delete this file';
export const NOT_OWNER_SHARE_TEXT = 'You cannot share files you do not own';
export const SHARE_WITH_SELF_TEXT = 'You cannot share with yourself';
/** The item a link shares is moved or deleted by its owner only (permissions.ts `changeRefusal`). */
export const LINKED_ITEM_TEXT = 'Only the owner can move or delete the item this link shares';

/** Share links (docs/protocol.md "Sharing"). */
export const LINK_PASSWORD_PROMPT_TEXT = 'This link requires a password to access:';
export const LINK_PASSWORD_WRONG_TEXT = 'Invalid password!';

/** Uploads: 402 and 405 (docs/protocol.md "Files and uploads"). */
export const NO_SPACE_TEXT = 'Not enough storage space';
export const TOO_LARGE_TEXT = 'File is too large';

/** Any 429; the web app adds when to try again (docs/web-files.md "Feedback"). */
export const RATE_LIMITED_TEXT = 'You are sending too many requests. Please slow down.';

/** Accounts (docs/protocol.md "Accounts"). */
export const USERNAME_LENGTH_TEXT = 'Username must be 3-20 characters long.';
export const USERNAME_TAKEN_TEXT = 'Username is already in use!';
export const EMAIL_INVALID_TEXT = 'Invalid email!';
export const EMAIL_TAKEN_TEXT = 'Email is already in use!';
export const INVALID_CREDENTIALS_TEXT = 'Invalid username or password.';
export const USER_NOT_FOUND_TEXT = 'User does not exist';
export const TOTP_PROMPT_TEXT = 'Enter the TOTP code from your authenticator app';
/** A session whose browser the server could not tell from its User-Agent. */
export const UNKNOWN_DEVICE_TEXT = 'Unknown device';
