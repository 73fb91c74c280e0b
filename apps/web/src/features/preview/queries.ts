/** The previewer's server state (the decrypted ranges it reads) arrives with the previewer. */
export {};
